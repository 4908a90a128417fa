import Dispatch
import Synchronization
import TextKitLite
import TextKitLiteFeed

/// What background work hands to the main thread: appended from any thread, taken whole by
/// the frame loop. `arrival` is signalled on every append, so a loop with nothing to show
/// can wait for work instead of spinning.
final class Inbox: Sendable {
    enum Delivery: Sendable {
        /// Cells laid out by the height pass: (index, height in pixels, or the layout error).
        case heights([(index: Int, height: Result<Int, LayoutError>)])
        /// A cell laid out (and its pictures decoded) ahead of display.
        case preloaded(index: Int, Result<CellLayout, LayoutError>)
        /// A render reported: its target tells which request it was.
        case rendered(index: Int, target: RenderTarget, outcome: DisplayTask.Outcome)
        /// A picture could not be had (`FeedMedia` reports each once).
        case message(String)
    }

    private let deliveries = Mutex<[Delivery]>([])
    let arrival = DispatchSemaphore(value: 0)

    func append(_ delivery: Delivery) {
        deliveries.withLock { $0.append(delivery) }
        arrival.signal()
    }

    func take() -> [Delivery] {
        deliveries.withLock { list in
            let taken = list
            list = []
            return taken
        }
    }
}
