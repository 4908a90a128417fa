import Testing
import TextKitLite
import TextKitLiteFeed

/// The code of the article "Precomputing a feed", block by block as it shows it.
@Suite struct PrecomputingAFeedExamples {
    @Test func precomputingAFeed() throws {
        let engine = try TextEngine.bundled()
        let precomputer = FeedPrecomputer(engine: engine, emoticons: try EmoticonTable.bundled())
        let posts = [
            FeedPost(id: "1001", author: "小林同学", text: "今天早上六点起床去跑步[微笑] #晨跑打卡#"),
            FeedPost(id: "1002", author: "Mia Chen", text: "Just shipped 🎉 https://example.com/releases/2.4",
                     quote: "Release notes for 2.4", images: 3),
        ]

        let cell = try precomputer.layout(posts[0], width: 375)     // CellLayout
        let height = cell.height                                    // points
        let body = cell.element("body")?.frame                      // "avatar", "author", "body", "quote", "image0", …
        #expect(height > 0 && body != nil)
        #expect(try height == precomputer.measure(posts[0], width: 375).height)

        let measured = try precomputer.measure(posts[1], width: 375)   // CellMeasurement
        let bodyLines = measured.text("body")?.lineCount
        #expect(try bodyLines == precomputer.layout(posts[1], width: 375).lineCounts["body"])

        var heights: [String: Double] = [:]
        RenderQueuePool.shared.orderedMap(posts, window: 256) { post in
            try? precomputer.measure(post, width: 375)
        } consume: { measured in
            if let measured { heights[measured.postID] = measured.height }
        }
        #expect(heights == ["1001": height, "1002": measured.height])

        let heightCache = HeightCache(maxEntries: 50_000, maxBytes: 64 << 20)
        let shared = FeedPrecomputer(engine: engine, heightCache: heightCache)
        _ = try shared.measure(posts[0], width: 375)
        _ = try shared.measure(posts[0], width: 375)                  // a hit
        let hitRate = heightCache.statistics.hitRate
        #expect(hitRate == 0.5)

        let renderer = CellRenderer()
        if let bitmap = try renderer.render(cell, options: RenderOptions(scale: 2)) {
            try bitmap.write(to: "/tmp/cell-1001.png", format: .png)
        }

        let measurer = FeedMeasurer(precomputer: precomputer, subject: .cell, width: 375)
        var output: [UInt8] = []
        for post in posts {
            try JSONLines.append(measurer.measure(post), to: &output)
        }
        // {"height":…,"id":"1001","lineStarts":[0],"lines":1,"truncated":false}
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2 && lines[0].contains(#""id":"1001","lineStarts":[0],"lines":1,"truncated":false}"#))

        let spaced = FeedMeasurer(precomputer: precomputer, subject: .text, width: 200,
                                  textStyle: TextStyle(size: 17, weight: .bold, letterSpacing: 2))
        let record = try spaced.measure(posts[1])
        // record.layouts[0].lines: the text's lines in bold, 2 points apart per cluster
        let alone = try engine.measure(AttributedText(posts[1].text, style: TextStyle(size: 17, weight: .bold, letterSpacing: 2)),
                                       options: LayoutOptions(width: 200, lineSpacing: precomputer.style.lineSpacing))
        #expect(record.layouts[0].lines == alone.lineCount && record.layouts[0].height == alone.height)
        #expect(record.layouts[0].lines > (try FeedMeasurer(precomputer: precomputer, subject: .text, width: 200).measure(posts[1])).layouts[0].lines)
    }
}
