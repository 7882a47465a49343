import Glibc

/// The render thread of a display with a real clock (S5.2): it wakes at the
/// output's refresh rate, draws the committed tree with its animations at
/// the frame's time, and sleeps without a timer when nothing animates, no
/// commit is pending and no display link is waiting (no busy frames). While
/// the only animations to come wait to begin, it sleeps until the first
/// frame at or after the earliest begins (a commit still wakes it at once).
///
/// A frame's time is when it is predicted to reach the screen. The backend
/// reports when each frame was presented (presented(frameTime:at:)): the
/// loop's ticks then follow the output's vsync (the last presentation time
/// is on its grid), and a frame is drawn for its tick plus the backend's
/// latency in whole refresh intervals (a page-flipping backend presents a
/// frame drawn after one vsync at the next). A backend that presents
/// frames at the time they were drawn for changes nothing.
///
/// While the output is paused (DRM master lost, connector unplugged) the
/// loop draws nothing and sleeps without a timer until it is resumed.
final class RenderLoop: @unchecked Sendable {
    private var thread = pthread_t()
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var closing = false
    private var woken = false
    /// Guarded by mutex: the loop waits for a commit or a link, with no
    /// timer. Only then does a wake signal it: waiting for its next tick,
    /// the loop draws what was committed at that tick anyway, and a signal
    /// per commit (a program re-targeting thousands of layers a second, each
    /// in its own transaction) cost a futex call and a context switch each.
    private var idle = false
    private var paused = false
    /// Guarded by mutex: the output's refresh rate may change (RESIZED).
    private var interval: Double
    private let draw: (Double) -> Double
    private let wantsFrames: () -> Bool
    /// Frames whose vsync passed with no new frame while one was due.
    private(set) var missed: UInt64 = 0
    /// A presentation time the backend reported: a point of the vsync grid.
    private var anchor: Double?
    /// How much later than its tick a frame reaches the screen (whole
    /// intervals); the frame is drawn for that time.
    private var lead = 0.0

    /// `draw(time)` draws the frame for `time` and returns the media time
    /// at which a frame is next wanted (-infinity: at the next refresh,
    /// something animates; +infinity: none until a commit);
    /// `wantsFrames` says whether display links are waiting.
    init(refreshRate: Double, draw: @escaping (Double) -> Double, wantsFrames: @escaping () -> Bool) {
        interval = 1 / refreshRate
        self.draw = draw
        self.wantsFrames = wantsFrames
        pthread_mutex_init(&mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(&condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    /// The render thread's stack. Drawing recurses once a level of the
    /// layer tree, about 10 KB a level (Layer.maximumDepth levels: 2.5 MB):
    /// a size of its own, not whatever `ulimit -s` or the program gave new
    /// threads (a 1 MB default crashed drawing a tree 256 layers deep).
    /// Only the pages touched are committed.
    static let stackSize = 16 << 20

    /// Starts the thread: 0, or pthread_create's error when no thread
    /// could be made, even with the default stack.
    func start() -> Int32 {
        let body: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
            let loop = Unmanaged<RenderLoop>.fromOpaque(context!).takeRetainedValue()
            loop.run()
            return nil
        }
        let context = Unmanaged.passRetained(self).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, RenderLoop.stackSize)
        var result = pthread_create(&thread, &attributes, body, context)
        pthread_attr_destroy(&attributes)
        if result != 0 { result = pthread_create(&thread, nil, body, context) }
        guard result == 0 else {
            Unmanaged<RenderLoop>.fromOpaque(context).release()
            return result
        }
        started = true
        return 0
    }

    /// Whether the thread runs (stop joins it only then).
    private var started = false

    /// A commit or a new display link: there may be something to draw.
    func wake() {
        pthread_mutex_lock(&mutex)
        woken = true
        if idle { pthread_cond_signal(&condition) }
        pthread_mutex_unlock(&mutex)
    }

    /// The output cannot show frames (or can again); callable from any thread.
    func setPaused(_ value: Bool) {
        pthread_mutex_lock(&mutex)
        paused = value
        woken = true
        pthread_cond_signal(&condition)
        pthread_mutex_unlock(&mutex)
    }

    func setRefreshRate(_ rate: Double) {
        guard rate.isFinite, rate > 0 else { return }
        pthread_mutex_lock(&mutex)
        interval = 1 / rate
        pthread_mutex_unlock(&mutex)
    }

    private var currentInterval: Double {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return interval
    }

    func stop() {
        pthread_mutex_lock(&mutex)
        closing = true
        pthread_cond_signal(&condition)
        pthread_mutex_unlock(&mutex)
        if started { pthread_join(thread, nil) }
        started = false
    }

    /// The backend presented the frame drawn for `frameTime` at `presentation`.
    /// Callable from any thread.
    func presented(frameTime: Double, at presentation: Double) {
        guard frameTime.isFinite, presentation.isFinite else { return }
        pthread_mutex_lock(&mutex)
        let tick = frameTime - lead
        lead = min(max(((presentation - tick) / interval).rounded(), 0), 3) * interval
        anchor = presentation
        pthread_mutex_unlock(&mutex)
    }

    /// The next vsync at or after `t` on the output's grid.
    private func nextTick(after t: Double) -> Double {
        pthread_mutex_lock(&mutex)
        let origin = anchor ?? 0
        let interval = self.interval
        pthread_mutex_unlock(&mutex)
        return origin + ((t - origin) / interval).rounded(.up) * interval
    }

    private var currentLead: Double {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return lead
    }

    private func run() {
        var next = nextTick(after: mediaTime())
        while true {
            // Sleep until the tick (or until closing).
            pthread_mutex_lock(&mutex)
            var deadline = timespec(tv_sec: Int(next), tv_nsec: Int((next - next.rounded(.down)) * 1e9))
            while !closing && mediaTime() < next {
                pthread_cond_timedwait(&condition, &mutex, &deadline)
            }
            woken = false
            var resumed = false
            while !closing && paused {
                // nothing can be shown: no timer until resumed
                pthread_cond_wait(&condition, &mutex)
                resumed = true
            }
            let stop = closing
            pthread_mutex_unlock(&mutex)
            if stop { return }
            if resumed { next = nextTick(after: mediaTime()) }

            let wanted = draw(next + currentLead)
            let interval = currentInterval
            let now = mediaTime()
            // the following vsync, on the grid the backend's presentations set
            let following = nextTick(after: next + interval / 2)
            next = following
            while next <= now { next += interval; missed += 1 } // the frame took longer than a vsync

            // The tick whose frame (drawn for tick + lead) is the first at or
            // after `wanted`; nil for none.
            let due = wanted < .infinity ? nextTick(after: wanted - currentLead) : nil
            if (due.map { $0 > next } ?? true) && !wantsFrames() {
                // Idle: wait for a commit, a link or close, with no timer, or
                // until an animation waiting to begin begins.
                pthread_mutex_lock(&mutex)
                idle = true
                if let due {
                    var deadline = timespec(tv_sec: Int(due), tv_nsec: Int((due - due.rounded(.down)) * 1e9))
                    while !closing && !woken && mediaTime() < due {
                        pthread_cond_timedwait(&condition, &mutex, &deadline)
                    }
                } else {
                    while !closing && !woken { pthread_cond_wait(&condition, &mutex) }
                }
                let early = woken || closing || due == nil
                idle = false
                woken = false
                pthread_mutex_unlock(&mutex)
                next = early ? nextTick(after: mediaTime()) : due!
            }
        }
    }
}
