import Dispatch
import Foundation
import TextKitLite
import TextKitLiteFrontEnd

/// The output directory of one `feed` run: held under an exclusive lock, its temporary
/// files tracked so that an interrupt or an I/O error removes them all, and layouts.jsonl
/// present only when a run has finished (a stale one is removed when a run starts).
///
/// Images are written by the workers to unique temporary names (`mkstemp`); the caller
/// names them in input order and hands the renames back to the workers (`commit(_:on:)`);
/// layouts.jsonl is written to a temporary name and renamed at the end.
final class FeedOutput: Sendable {
    let path: String
    let layoutsPath: String
    /// The directory's descriptor, held open with `flock(LOCK_EX)` for the whole run: a
    /// second run on the same directory is refused, and the kernel drops the lock when
    /// this process ends, however it ends (no stale lock file to clean up).
    private let lockDescriptor: Int32
    private let state = Locked(State())
    /// The rename jobs handed to workers and not yet done.
    private let commits = DispatchGroup()

    private struct State {
        var temporaries: Set<String> = []
        /// Set once the run is abandoned: no temporary file is made or renamed after.
        var closed = false
        /// The first rename a worker could not make.
        var commitFailure: RenderError?
    }

    /// Creates the directory if needed and takes its lock; removes a layouts.jsonl left
    /// by an earlier run.
    ///
    /// - Throws: `CLIError` naming the directory: it cannot be made, or another run holds it.
    init(path: String) throws {
        self.path = path
        layoutsPath = (path as NSString).appendingPathComponent("layouts.jsonl")
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw CLIError("cannot create output directory \(path): \(Output.describe(error))")
        }
        lockDescriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard lockDescriptor >= 0 else { throw CLIError("cannot open output directory \(path): \(String(cString: strerror(errno)))") }
        guard flock(lockDescriptor, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno == EWOULDBLOCK ? "another textrender feed run is writing into it" : String(cString: strerror(errno))
            close(lockDescriptor)
            throw CLIError("output directory \(path) is in use: \(reason)")
        }
        if unlink(layoutsPath) != 0, errno != ENOENT {
            throw CLIError("cannot remove the previous \(layoutsPath): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(lockDescriptor) }

    /// Makes a temporary file beside `finalPath`, tracked until it is renamed or removed.
    ///
    /// - Throws: `RenderError.cannotWrite`; also once the run is abandoned.
    func createTemporaryFile(beside finalPath: String) throws(RenderError) -> (descriptor: Int32, path: String) {
        try state.withLock { (state: inout State) throws(RenderError) in
            guard !state.closed else { throw .cannotWrite(path: finalPath, reason: "the run was stopped") }
            let file = try OutputFile.createTemporary(beside: finalPath)
            state.temporaries.insert(file.path)
            return file
        }
    }

    /// Writes a bitmap to a temporary file beside `finalPath`.
    ///
    /// - Returns: the temporary file's path, for `commit`.
    /// - Throws: `RenderError.cannotWrite` (disk full, say); nothing is left behind.
    func writeTemporary(_ bitmap: Bitmap, format: Bitmap.FileFormat, beside finalPath: String) throws(RenderError) -> String {
        let file = try createTemporaryFile(beside: finalPath)
        do throws(RenderError) {
            defer { close(file.descriptor) }
            try OutputFile.write(bitmap, toDescriptor: file.descriptor, path: finalPath, format: format)
        } catch {
            discard(file.path)
            throw error
        }
        return file.path
    }

    /// Renames a temporary file to its final name.
    func commit(_ temporary: String, to finalPath: String) throws(RenderError) {
        try state.withLock { (state: inout State) throws(RenderError) in
            guard !state.closed, state.temporaries.remove(temporary) != nil else {
                throw .cannotWrite(path: finalPath, reason: "the run was stopped")
            }
            try OutputFile.moveTemporary(temporary, to: finalPath)
        }
    }

    /// The path of a file named `name` in the directory.
    func filePath(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Renames temporary files to their final names on one of `pool`'s workers, in order,
    /// so that the thread that orders the output only names them. A failed rename is kept
    /// (`commitFailure`) and the files after it are removed.
    func commit(_ files: [(temporary: String, final: String)], on pool: RenderQueuePool) {
        guard !files.isEmpty else { return }
        commits.enter()
        pool.submit { [self] in
            defer { commits.leave() }
            for (k, file) in files.enumerated() {
                do throws(RenderError) {
                    try commit(file.temporary, to: file.final)
                } catch {
                    state.withLock { state in state.commitFailure = state.commitFailure ?? error }
                    for rest in files[(k + 1)...] { discard(rest.temporary) }
                    return
                }
            }
        }
    }

    /// The first rename handed to a worker that failed, if any.
    var commitFailure: RenderError? { state.withLock { $0.commitFailure } }

    /// Waits until every rename handed to the workers is done.
    ///
    /// - Throws: the first that failed.
    func waitForCommits() throws(RenderError) {
        commits.wait()
        if let failure = commitFailure { throw failure }
    }

    /// Removes one temporary file.
    func discard(_ temporary: String) {
        state.withLock { state in
            if state.temporaries.remove(temporary) != nil { unlink(temporary) }
        }
    }

    /// Removes every temporary file and refuses new ones; images already renamed stay, and
    /// layouts.jsonl stays absent.
    func abandon() {
        state.withLock { Self.closeAll(&$0) }
    }

    private static func closeAll(_ state: inout State) {
        state.closed = true
        for temporary in state.temporaries { unlink(temporary) }
        state.temporaries.removeAll()
    }

    /// On SIGINT or SIGTERM: abandon the run and exit with 128 + the signal (130, 143).
    /// The signals are received by dispatch sources, so the cleanup runs on an ordinary
    /// thread and may take the lock; the process exits while holding it, so no worker
    /// makes or renames a file after the cleanup. A parent that ignores or blocks them
    /// (a background job) does not stop this.
    func removeTemporariesOnInterrupt() -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                state.withLock { state in
                    Self.closeAll(&state)
                    _exit(128 + number)
                }
            }
            source.resume()
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, number)
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
            return source
        }
    }
}
