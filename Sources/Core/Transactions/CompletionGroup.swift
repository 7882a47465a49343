import Synchronization

/// Tracks the animations added inside a transaction (S2.4): its completion
/// runs once, on the committing thread's run loop, when every one of them
/// has finished or been removed, and not before the outermost commit.
final class CompletionGroup: @unchecked Sendable {
    private struct Counts { var pending = 0; var sealed = false; var fired = false }
    private let counts = Mutex(Counts())
    /// Set at any time before the commit, in the order set: setting one
    /// again adds it, so none set is lost (each runs once, S2.4). A group
    /// without any fires nothing.
    var completions: [() -> Void] = []
    private var runLoop: RunLoop?

    init() {}

    func animationAdded() { counts.withLock { $0.pending += 1 } }

    func animationEnded() { fireIfDone { $0.pending -= 1 } }

    /// The outermost commit happened on `runLoop`'s thread.
    func seal(on runLoop: RunLoop) {
        self.runLoop = runLoop
        fireIfDone { $0.sealed = true }
    }

    private func fireIfDone(_ change: (inout Counts) -> Void) {
        let fire = counts.withLock { c -> Bool in
            change(&c)
            guard c.sealed, c.pending <= 0, !c.fired else { return false }
            c.fired = true
            return true
        }
        if fire, let runLoop { for completion in completions { runLoop.post(completion) } }
    }
}
