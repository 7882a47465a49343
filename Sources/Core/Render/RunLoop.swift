import CSupport
import Glibc
import Synchronization

/// A thread's run loop (S2.2, S4.6, S5.3): where callbacks for that thread
/// are delivered. Other threads (the render thread among them) post work to
/// it; the thread runs it when it iterates (lk_display_dispatch/run). Its
/// eventfd is readable while work is waiting, for the program's own poll().
public final class RunLoop: ThreadEndObserver, @unchecked Sendable {
    public let fd: Int32
    /// Work waiting, each with the number `post` returned for it.
    private let queue = Locked<[(id: UInt64, work: () -> Void)]>([])
    private var nextID: UInt64 = 0   // under queue's lock
    /// wake() was called since the last iteration (no closure queued for it).
    private var woken = false   // under queue's lock
    /// Its thread has ended: nothing will run what is posted. (Queued work
    /// holds animation records, which hold their run loop: kept, it was a
    /// cycle that leaked the run loop and all it held.)
    private var ended = false   // under queue's lock

    private init() {
        fd = layerkit_support_eventfd()
    }

    deinit { close(fd) }

    private static let perThread = ThreadLocal { RunLoop() }

    /// The calling thread's run loop.
    public static var current: RunLoop { perThread.value }

    /// Queues work for this run loop's thread; callable from any thread.
    /// Returns its number, for `withdraw` (nil: the thread has ended and
    /// the work was dropped).
    @discardableResult
    public func post(_ work: @escaping () -> Void) -> UInt64? {
        // One wake-up per batch: the fd is already readable if work was waiting.
        let posted = queue.withLock { q -> (id: UInt64, wasEmpty: Bool)? in
            if ended { return nil }
            let empty = q.isEmpty
            nextID &+= 1
            q.append((nextID, work))
            return (nextID, empty)
        }
        if posted?.wasEmpty == true {
            var one: UInt64 = 1
            _ = write(fd, &one, 8)
        }
        return posted?.id
    }

    /// Takes back work posted and not yet run (a display link's call its
    /// pause or invalidation dropped): with nothing else waiting the fd is
    /// quiet again (it stayed readable, and a poll() loop woke for a
    /// dispatch that delivered nothing). The work is released outside the
    /// lock (it may hold layers).
    func withdraw(_ id: UInt64) {
        let taken = queue.withLock { q -> (() -> Void)? in
            guard let i = q.firstIndex(where: { $0.id == id }) else { return nil }
            let work = q.remove(at: i).work
            if q.isEmpty && !woken {
                var counter: UInt64 = 0
                _ = read(fd, &counter, 8)
            }
            return work
        }
        _ = taken
    }

    /// Makes the fd readable and the next iteration not wait, without
    /// queueing anything (a thread that never iterates keeps nothing).
    public func wake() {
        let write = queue.withLock { q -> Bool in
            guard !ended, !woken else { return false }
            woken = true
            return q.isEmpty
        }
        if write {
            var one: UInt64 = 1
            _ = Glibc.write(fd, &one, 8)
        }
    }

    /// The wake-up for the thread's implicit transaction is answered (a
    /// flush committed it): with nothing queued the fd is quiet again
    /// (after lk_transaction_flush a poll() loop woke once for nothing).
    /// The fd is reset under the lock: a post after it writes it again.
    func settle() {
        queue.withLock { q in
            guard woken, q.isEmpty else { return }
            woken = false
            var counter: UInt64 = 0
            _ = read(fd, &counter, 8)
        }
    }

    /// Its thread has ended (work posted to it is dropped).
    public var hasEnded: Bool { queue.withLock { _ in ended } }

    /// The thread ended: what waits is dropped (outside the lock: releasing
    /// it may release layers), and what comes later is not kept.
    public func threadEnded() {
        let dropped = queue.withLock { q -> [(id: UInt64, work: () -> Void)] in
            ended = true
            let w = q
            q.removeAll()
            return w
        }
        _ = dropped
    }

    /// One iteration: commits the thread's implicit transaction (S2.2), waits
    /// up to `timeout` seconds (negative: forever) for work, runs what is
    /// queued. Returns the number of callbacks run.
    @discardableResult
    public func runOnce(timeout: Double) -> Int {
        // (woken before the flush, which settles a wake-up it answers: the
        // iteration it asked for still does not wait)
        let wokenBefore = queue.withLock { _ in woken }
        ModelLock.shared.withLock { Transaction.flush() }
        let idle = !wokenBefore && queue.withLock { $0.isEmpty && !woken }
        if idle && timeout != 0 {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ms = timeout < 0 ? -1 : Int32(min(timeout * 1000, Double(Int32.max)))
            _ = poll(&p, 1, ms)
        }
        // Reset the fd before taking the work: a post after this point either
        // finds work waiting (taken below) or writes the fd again.
        var counter: UInt64 = 0
        _ = read(fd, &counter, 8)
        let work = queue.withLock { q -> [(id: UInt64, work: () -> Void)] in
            woken = false
            let w = q
            q.removeAll()
            return w
        }
        // Callbacks run without the model lock held, on this thread.
        for item in work { item.work() }
        // What the callbacks changed is committed in this same iteration.
        if !work.isEmpty { ModelLock.shared.withLock { Transaction.flush() } }
        return work.count
    }
}
