import Glibc
import Testing
@testable import LayerKitCore

/// The render loop draws each frame for the time it is predicted to reach
/// the screen, following what the backend reports (issue 7, frame pacing).
/// These run the loop on its real clock for a few dozen frames.
@Suite struct RenderLoopTests {
    /// A backend that page-flips: a frame drawn at wall time w reaches the
    /// screen at the first vsync after w, on a grid offset from the loop's
    /// own by `phase`. Records (frame time, presentation) pairs.
    final class FlippingBackend: @unchecked Sendable {
        let interval: Double, phase: Double
        let records = Locked<[(frameTime: Double, presentation: Double)]>([])
        weak var loop: RenderLoop?
        init(interval: Double, phase: Double) { self.interval = interval; self.phase = phase }

        func draw(_ time: Double) -> Double {
            let now = mediaTime()
            let vsync = ((now - phase) / interval).rounded(.down) * interval + phase + interval
            records.withLock { $0.append((time, vsync)) }
            loop?.presented(frameTime: time, at: vsync)
            return -.infinity
        }
    }

    private func run(_ backend: FlippingBackend, frames: Int) -> [(frameTime: Double, presentation: Double)] {
        let loop = RenderLoop(refreshRate: 1 / backend.interval, draw: { backend.draw($0) }, wantsFrames: { true })
        backend.loop = loop
        loop.start()
        var wait = timespec(tv_sec: 0, tv_nsec: 2_000_000)
        while backend.records.withLock({ $0.count }) < frames { nanosleep(&wait, nil) }
        loop.stop()
        return backend.records.withLock { $0 }
    }

    @Test func framesAreDrawnForTheirPresentationTime() {
        let interval = 1.0 / 60
        let backend = FlippingBackend(interval: interval, phase: 0.007)
        let records = run(backend, frames: 30)
        // after a few reports the loop follows the flips: each frame's time
        // is the vsync it reaches the screen at
        let late = records.suffix(15)
        let off = late.filter { abs($0.frameTime - $0.presentation) > 0.001 }
        #expect(off.count <= 2, "frames drawn for a time other than their presentation: \(off.prefix(5))")
    }

    @Test func aBackendPresentingAtTheFrameTimeKeepsTheLoopsGrid() {
        let interval = 1.0 / 60
        final class Immediate: @unchecked Sendable {
            let times = Locked<[Double]>([])
            weak var loop: RenderLoop?
        }
        let backend = Immediate()
        let loop = RenderLoop(refreshRate: 60, draw: { time in
            backend.times.withLock { $0.append(time) }
            backend.loop?.presented(frameTime: time, at: time)
            return -.infinity
        }, wantsFrames: { true })
        backend.loop = loop
        loop.start()
        var wait = timespec(tv_sec: 0, tv_nsec: 2_000_000)
        while backend.times.withLock({ $0.count }) < 10 { nanosleep(&wait, nil) }
        loop.stop()
        let times = backend.times.withLock { $0 }
        let offGrid = times.filter { abs(($0 / interval).rounded() * interval - $0) > 1e-6 }
        #expect(offGrid.isEmpty, "frame times off the vsync grid: \(offGrid)")
    }

    /// S5.2: a frame that wants the next one only at a later media time (an
    /// animation waiting to begin) lets the loop sleep until then: the next
    /// frame is the first on the grid at or after that time, none between.
    @Test func aFrameWantedLaterIsDrawnThenAndNoneBefore() {
        let interval = 1.0 / 60
        final class Waiting: @unchecked Sendable {
            let times = Locked<[Double]>([])
            let wanted = Locked<Double>(0)
        }
        let backend = Waiting()
        let loop = RenderLoop(refreshRate: 60, draw: { time in
            backend.times.withLock { $0.append(time) }
            return backend.wanted.withLock { w in
                // the first frame asks for one 0.2 s later; those after it, at once
                if w == 0 { w = time + 0.2; return w }
                return -.infinity
            }
        }, wantsFrames: { false })
        loop.start()
        var wait = timespec(tv_sec: 0, tv_nsec: 2_000_000)
        let deadline = mediaTime() + 2
        while backend.times.withLock({ $0.count }) < 3 && mediaTime() < deadline { nanosleep(&wait, nil) }
        loop.stop()
        let times = backend.times.withLock { $0 }
        let wanted = backend.wanted.withLock { $0 }
        #expect(times.count >= 3, "frames: \(times)")
        guard times.count >= 3 else { return }
        #expect(times[1] >= wanted && times[1] < wanted + interval + 1e-6,
                "the frame after the wait at \(times[1] - wanted) s from the time wanted")
        #expect(times[2] > times[1], "then frames come at every refresh: \(times)")
    }
}
