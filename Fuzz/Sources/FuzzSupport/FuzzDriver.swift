import CLibFuzzer
import Foundation

/// The libFuzzer glue shared by the fuzz targets: each target's `@main` hands its per-input
/// function to `FuzzDriver.run`, which runs libFuzzer's driver over the command line
/// (libFuzzer's flags, corpus folders or inputs to replay).
public enum FuzzDriver {
    /// The target's name, in invariant failures.
    nonisolated(unsafe) public private(set) static var name = "fuzzer"
    /// The per-input function. libFuzzer calls it from one thread, after `run` set it.
    nonisolated(unsafe) static var testOneInput: ([UInt8]) -> Void = { _ in }

    /// Runs libFuzzer with the process's arguments over `body`, then exits with its status.
    public static func run(name: String, _ body: @escaping ([UInt8]) -> Void) -> Never {
        self.name = name
        testOneInput = body
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) })
    }
}

/// libFuzzer's per-input callback. A broken invariant is a `fatalError`, which libFuzzer
/// reports as a crash and saves as `crash-<sha1>`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzDriver.testOneInput(bytes)
    return 0
}

public func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fail(message()) }
}

public func fail(_ message: String) -> Never {
    fatalError("\(FuzzDriver.name) invariant: \(message)")
}
