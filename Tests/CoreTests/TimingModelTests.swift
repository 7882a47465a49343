import Testing
@testable import LayerKitCore

private func timing(duration: Double = 1, beginTime: Double = 0, speed: Double = 1, timeOffset: Double = 0,
                    repeatCount: Double = 0, repeatDuration: Double = 0, autoreverses: Bool = false,
                    fillMode: FillMode = .removed) -> TimingState {
    var t = TimingState()
    t.duration = duration; t.beginTime = beginTime; t.speed = speed; t.timeOffset = timeOffset
    t.repeatCount = repeatCount; t.repeatDuration = repeatDuration; t.autoreverses = autoreverses
    t.fillMode = fillMode
    return t
}

private func progress(_ t: TimingState, at local: Double) -> Double? {
    TimingModel.evaluate(t, localTime: local).progress
}

@Suite struct TimingModelTests {
    /// S4.2 on the render side: a committed layer's local time goes through
    /// its ancestors' timing, also when an ancestor's changes after the
    /// layer's node was made, and back. RenderTree.localTime skips the walk
    /// up the parents while no live node shifts time (RenderNode.timeShifters):
    /// run alone, this fails if a commit does not count the change.
    @Test func committedLocalTimeFollowsAnAncestorsTimingChangesS4_2() throws {
        let (root, child) = try ModelLock.shared.withLock {
            let root = Layer(), child = Layer()
            try root.addSublayer(child)
            Transaction.flush()
            return (root, child)
        }
        let node = try #require(child.renderNode)
        // (speed, timeOffset) of the root, beginTime of the child, and the local time at 10
        for (speed, offset, begin, expected) in [(1.0, 0.0, 0.0, 10.0), (2, 1, 0, 21), (1, 0, 4, 6), (1, 0, 0, 10)] {
            try ModelLock.shared.withLock {
                try root.set(LayerProperties.speed, speed)
                try root.set(LayerProperties.timeOffset, offset)
                try child.set(LayerProperties.beginTime, begin)
                Transaction.flush()
            }
            #expect(RenderTree.localTime(of: node, at: 10) == expected, "speed \(speed) offset \(offset) begin \(begin)")
        }
    }

    @Test func localTimeS4_2() {
        #expect(TimingModel.localTime(7, TimingState()) == 7)
        #expect(TimingModel.localTime(3, timing(beginTime: 2, speed: 2, timeOffset: 0.5)) == 2.5)
        // Paused: every parent time gives timeOffset.
        #expect(TimingModel.localTime(3, timing(beginTime: 2, speed: 0, timeOffset: 0.5)) == 0.5)
        #expect(TimingModel.localTime(300, timing(beginTime: 2, speed: 0, timeOffset: 0.5)) == 0.5)
        // Negative speed runs local time backwards.
        let backwards = timing(beginTime: 2, speed: -1, timeOffset: 1)
        #expect(TimingModel.localTime(2, backwards) == 1)
        #expect(TimingModel.localTime(2.25, backwards) == 0.75)
        #expect(TimingModel.localTime(3, backwards) == 0)
    }

    @Test func parentTimeRoundTripS4_2() throws {
        var rng = SplitMix(state: 3)
        for _ in 0..<500 {
            var speed = rng.uniform(-4, 4)
            if abs(speed) < 0.01 { speed = 1 }
            let t = timing(beginTime: rng.uniform(-100, 100), speed: speed, timeOffset: rng.uniform(-10, 10))
            let parent = rng.uniform(-1000, 1000)
            let back = try #require(TimingModel.parentTime(TimingModel.localTime(parent, t), t))
            #expect(near(back, parent, 1e-9))
            let local = rng.uniform(-1000, 1000)
            #expect(near(TimingModel.localTime(try #require(TimingModel.parentTime(local, t)), t), local, 1e-9))
        }
        #expect(TimingModel.parentTime(1, timing(speed: 0, timeOffset: 1)) == nil)
    }

    @Test func phasesS4_4() {
        let t = timing(duration: 2)
        #expect(TimingModel.evaluate(t, localTime: -0.1) ==
            TimingEvaluation(phase: .before, progress: nil, iteration: 0, activeDuration: 2))
        #expect(TimingModel.evaluate(t, localTime: 0) ==
            TimingEvaluation(phase: .active, progress: 0, iteration: 0, activeDuration: 2))
        #expect(TimingModel.evaluate(t, localTime: 0.5) ==
            TimingEvaluation(phase: .active, progress: 0.25, iteration: 0, activeDuration: 2))
        #expect(TimingModel.evaluate(t, localTime: 1.999).phase == .active)
        // The active interval is half open: its end is already after.
        #expect(TimingModel.evaluate(t, localTime: 2) ==
            TimingEvaluation(phase: .after, progress: nil, iteration: 0, activeDuration: 2))
        #expect(TimingModel.evaluate(t, localTime: 50).phase == .after)
        #expect(TimingModel.evaluate(t, localTime: .nan).phase == .before)
    }

    @Test func fillModesS4_4() {
        let cases: [(FillMode, before: Double?, after: Double?)] = [
            (.removed, nil, nil), (.forwards, nil, 1), (.backwards, 0, nil), (.both, 0, 1),
        ]
        for (mode, before, after) in cases {
            let t = timing(fillMode: mode)
            #expect(progress(t, at: -5) == before, "\(mode.name) before")
            #expect(progress(t, at: -5e-9) == before, "\(mode.name) just before")
            #expect(progress(t, at: 0.5) == 0.5, "\(mode.name) active")
            #expect(progress(t, at: 1) == after, "\(mode.name) at the end")
            #expect(progress(t, at: 10) == after, "\(mode.name) after")
            #expect(TimingModel.evaluate(t, localTime: -5).phase == .before)
            #expect(TimingModel.evaluate(t, localTime: 10).phase == .after)
        }
    }

    @Test func fractionalRepeatCountS4_4() {
        let t = timing(repeatCount: 2.5, fillMode: .forwards)
        #expect(TimingModel.evaluate(t, localTime: 0).activeDuration == 2.5)
        #expect(TimingModel.evaluate(t, localTime: 1.25) ==
            TimingEvaluation(phase: .active, progress: 0.25, iteration: 1, activeDuration: 2.5))
        #expect(TimingModel.evaluate(t, localTime: 2.4).iteration == 2)
        // Ends mid-iteration and holds there.
        #expect(TimingModel.evaluate(t, localTime: 2.5) ==
            TimingEvaluation(phase: .after, progress: 0.5, iteration: 2, activeDuration: 2.5))
        #expect(TimingModel.evaluate(t, localTime: 99) ==
            TimingEvaluation(phase: .after, progress: 0.5, iteration: 2, activeDuration: 2.5))
        // Less than one iteration.
        let half = timing(repeatCount: 0.5, fillMode: .forwards)
        #expect(TimingModel.evaluate(half, localTime: 3) ==
            TimingEvaluation(phase: .after, progress: 0.5, iteration: 0, activeDuration: 0.5))
    }

    @Test func wholeRepeatCountEndsAtTheEndS4_4() {
        let t = timing(duration: 0.1, repeatCount: 3, fillMode: .forwards)
        let end = TimingModel.evaluate(t, localTime: 1)
        #expect(end.phase == .after && end.progress == 1 && end.iteration == 2)
        #expect(near(end.activeDuration, 0.3, 1e-15))
        let mid = TimingModel.evaluate(t, localTime: 0.25)
        #expect(mid.iteration == 2 && near(mid.progress!, 0.5, 1e-9))
    }

    @Test func infiniteRepeatS4_4() {
        let t = timing(repeatCount: .infinity, fillMode: .both)
        let e = TimingModel.evaluate(t, localTime: 1_000_000.25)
        #expect(e == TimingEvaluation(phase: .active, progress: 0.25, iteration: 1_000_000, activeDuration: .infinity))
        #expect(TimingModel.evaluate(t, localTime: 1e300).phase == .active)
        let forever = TimingModel.evaluate(t, localTime: .infinity)
        #expect(forever.phase == .active && forever.progress == 0)
        #expect(TimingModel.evaluate(t, localTime: -1).progress == 0)
    }

    /// An infinite duration runs for ever at its start (c-api.md: infinity
    /// means forever); it was taken for an instantaneous node, over at once.
    @Test func infiniteDurationS4_4() {
        let t = timing(duration: .infinity, fillMode: .removed)
        #expect(TimingModel.evaluate(t, localTime: 0) ==
            TimingEvaluation(phase: .active, progress: 0, iteration: 0, activeDuration: .infinity))
        #expect(TimingModel.evaluate(t, localTime: 1e9) ==
            TimingEvaluation(phase: .active, progress: 0, iteration: 0, activeDuration: .infinity))
        #expect(TimingModel.evaluate(t, localTime: -1).phase == .before)
        let reversing = timing(duration: .infinity, repeatCount: 3, autoreverses: true)
        #expect(TimingModel.evaluate(reversing, localTime: 50).progress == 0)
        // a finite repeatDuration ends it, filling at where it was
        let cut = timing(duration: .infinity, repeatDuration: 2, fillMode: .forwards)
        #expect(TimingModel.evaluate(cut, localTime: 1).phase == .active)
        #expect(TimingModel.evaluate(cut, localTime: 3) ==
            TimingEvaluation(phase: .after, progress: 0, iteration: 0, activeDuration: 2))
    }

    @Test func repeatDurationS4_4() {
        let t = timing(duration: 1, repeatDuration: 2.5, fillMode: .forwards)
        #expect(TimingModel.evaluate(t, localTime: 1.75) ==
            TimingEvaluation(phase: .active, progress: 0.75, iteration: 1, activeDuration: 2.5))
        #expect(TimingModel.evaluate(t, localTime: 3) ==
            TimingEvaluation(phase: .after, progress: 0.5, iteration: 2, activeDuration: 2.5))
        // 0.3 / 0.1 is 2.9999999999999996 in doubles: still three whole iterations.
        let whole = TimingModel.evaluate(timing(duration: 0.1, repeatDuration: 0.3, fillMode: .forwards), localTime: 1)
        #expect(whole.progress == 1 && whole.iteration == 2)
        // repeatDuration also counts the reversed halves.
        let reversing = timing(duration: 1, repeatDuration: 3, autoreverses: true, fillMode: .forwards)
        #expect(TimingModel.evaluate(reversing, localTime: 2.5).progress == 0.5)
        #expect(TimingModel.evaluate(reversing, localTime: 2.5).iteration == 1)
        #expect(TimingModel.evaluate(reversing, localTime: 5).progress == 1)
    }

    @Test func autoreversesS4_4() {
        let t = timing(duration: 1, autoreverses: true, fillMode: .both)
        #expect(TimingModel.evaluate(t, localTime: 0).activeDuration == 2)
        let samples: [(Double, Double)] = [(0, 0), (0.25, 0.25), (0.5, 0.5), (1, 1), (1.25, 0.75), (1.5, 0.5), (1.75, 0.25)]
        for (local, expected) in samples {
            let e = TimingModel.evaluate(t, localTime: local)
            #expect(e.phase == .active && e.progress == expected && e.iteration == 0, "at \(local)")
        }
        // Ends where it began.
        #expect(TimingModel.evaluate(t, localTime: 2) ==
            TimingEvaluation(phase: .after, progress: 0, iteration: 0, activeDuration: 2))
        #expect(progress(t, at: -1) == 0)

        let twice = timing(duration: 1, repeatCount: 2, autoreverses: true, fillMode: .forwards)
        #expect(TimingModel.evaluate(twice, localTime: 0).activeDuration == 4)
        #expect(TimingModel.evaluate(twice, localTime: 2.25) ==
            TimingEvaluation(phase: .active, progress: 0.25, iteration: 1, activeDuration: 4))
        #expect(TimingModel.evaluate(twice, localTime: 3.5).progress == 0.5)
        #expect(TimingModel.evaluate(twice, localTime: 4) ==
            TimingEvaluation(phase: .after, progress: 0, iteration: 1, activeDuration: 4))
        // 1.5 reversing cycles stop at the top of the third forward half.
        let oneAndHalf = timing(duration: 1, repeatCount: 1.5, autoreverses: true, fillMode: .forwards)
        #expect(TimingModel.evaluate(oneAndHalf, localTime: 10).progress == 1)
    }

    @Test func speedAndOffsetDriveProgressS4_2() {
        // Twice as fast: a one second animation is over in half a second of parent time.
        let fast = timing(duration: 1, beginTime: 10, speed: 2)
        #expect(progress(fast, at: TimingModel.localTime(10.25, fast)) == 0.5)
        #expect(TimingModel.evaluate(fast, localTime: TimingModel.localTime(10.5, fast)).phase == .after)
        // Backwards from its end, over the same second of parent time
        // (Core Animation's active interval is in parent time whatever the
        // sign of speed): its end first, filling with it before, its start
        // after.
        let reverse = timing(duration: 1, beginTime: 10, speed: -1, timeOffset: 1, fillMode: .both)
        #expect(progress(reverse, at: TimingModel.localTime(10, reverse)) == 1)
        #expect(progress(reverse, at: TimingModel.localTime(10.25, reverse)) == 0.75)
        #expect(TimingModel.evaluate(reverse, localTime: TimingModel.localTime(10.75, reverse)).phase == .active)
        #expect(TimingModel.evaluate(reverse, localTime: TimingModel.localTime(11, reverse)).phase == .after)
        #expect(TimingModel.evaluate(reverse, localTime: TimingModel.localTime(11.5, reverse)).phase == .after)
        #expect(progress(reverse, at: TimingModel.localTime(11.5, reverse)) == 0)
        #expect(TimingModel.evaluate(reverse, localTime: TimingModel.localTime(9.5, reverse)).phase == .before)
        #expect(progress(reverse, at: TimingModel.localTime(9.5, reverse)) == 1)
        // speed -1 alone plays it backwards from its end too.
        let back = timing(duration: 1, beginTime: 10, speed: -1)
        #expect(progress(back, at: TimingModel.localTime(10, back)) == 1)
        #expect(progress(back, at: TimingModel.localTime(10.25, back)) == 0.75)
        #expect(progress(back, at: TimingModel.localTime(9.75, back)) == nil)
        #expect(progress(back, at: TimingModel.localTime(11, back)) == nil)
        // timeOffset starts it part way through, wraps past its end and
        // ends a duration later (Core Animation: "C D E A B").
        let offset = timing(duration: 1, beginTime: 10, timeOffset: 0.5)
        #expect(progress(offset, at: TimingModel.localTime(10, offset)) == 0.5)
        #expect(progress(offset, at: TimingModel.localTime(10.25, offset)) == 0.75)
        #expect(progress(offset, at: TimingModel.localTime(10.75, offset)) == 0.25)
        #expect(TimingModel.evaluate(offset, localTime: TimingModel.localTime(10.99, offset)).phase == .active)
        #expect(TimingModel.evaluate(offset, localTime: TimingModel.localTime(11, offset)).phase == .after)
        #expect(TimingModel.evaluate(offset, localTime: TimingModel.localTime(9.99, offset)).phase == .before)
        // An offset past the duration wraps too; twice, with repeatCount 2.
        let far = timing(duration: 1, beginTime: 10, timeOffset: 3.5)
        #expect(progress(far, at: TimingModel.localTime(10.25, far)) == 0.75)
        #expect(progress(far, at: TimingModel.localTime(10.75, far)) == 0.25)
        let twice = timing(duration: 1, beginTime: 10, timeOffset: 0.25, repeatCount: 2)
        #expect(near(progress(twice, at: TimingModel.localTime(11.8, twice)) ?? -1, 0.05, 1e-12))
        #expect(TimingModel.evaluate(twice, localTime: TimingModel.localTime(11.9, twice)).phase == .active)
        #expect(TimingModel.evaluate(twice, localTime: TimingModel.localTime(12, twice)).phase == .after)
        // Filling, it shows where the interval starts and ends: at the offset.
        let filled = timing(duration: 1, beginTime: 10, timeOffset: 0.25, fillMode: .both)
        #expect(progress(filled, at: TimingModel.localTime(9, filled)) == 0.25)
        #expect(progress(filled, at: TimingModel.localTime(12, filled)) == 0.25)
        // Speed 0 freezes local time, so progress holds.
        let frozen = timing(duration: 1, beginTime: 10, speed: 0, timeOffset: 0.4)
        #expect(progress(frozen, at: TimingModel.localTime(1e6, frozen)) == 0.4)
    }

    /// The seed's pause/resume recipe, on a root layer's timing values (parent
    /// time = media time), with an animation in the layer's local time.
    @Test func pauseResumeRecipeS4_2() {
        var layer = TimingState()
        let animation = timing(duration: 2, beginTime: 100)
        func animationProgress(at now: Double) -> Double? {
            progress(animation, at: TimingModel.localTime(TimingModel.localTime(now, layer), animation))
        }
        #expect(animationProgress(at: 100.5) == 0.25)

        // Pause at 100.5.
        var pausedTime = TimingModel.localTime(100.5, layer)
        layer.speed = 0
        layer.timeOffset = pausedTime
        for now in [100.5, 101.0, 150.0, 1e6] {
            #expect(TimingModel.localTime(now, layer) == pausedTime)
            #expect(animationProgress(at: now) == 0.25)
        }

        // Resume at 200.
        pausedTime = layer.timeOffset
        layer.speed = 1
        layer.timeOffset = 0
        layer.beginTime = 0
        layer.beginTime = TimingModel.localTime(200, layer) - pausedTime
        #expect(TimingModel.localTime(200, layer) == pausedTime)
        #expect(near(TimingModel.localTime(200.75, layer), pausedTime + 0.75, 1e-12))
        #expect(near(animationProgress(at: 200.5)!, 0.5, 1e-12))

        // Again: pause at 201, resume at 300; the animation ends 0.5 s later.
        pausedTime = TimingModel.localTime(201, layer)
        layer.speed = 0
        layer.timeOffset = pausedTime
        #expect(near(animationProgress(at: 250)!, 0.75, 1e-12))
        pausedTime = layer.timeOffset
        layer.speed = 1
        layer.timeOffset = 0
        layer.beginTime = 0
        layer.beginTime = TimingModel.localTime(300, layer) - pausedTime
        #expect(near(animationProgress(at: 300.25)!, 0.875, 1e-12))
        #expect(animationProgress(at: 300.5) == nil)
    }

    @Test func unresolvedDurationIsInstantS4_3() {
        let t = timing(duration: 0, fillMode: .both)
        #expect(TimingModel.evaluate(t, localTime: -1) ==
            TimingEvaluation(phase: .before, progress: 0, iteration: 0, activeDuration: 0))
        #expect(TimingModel.evaluate(t, localTime: 0) ==
            TimingEvaluation(phase: .after, progress: 1, iteration: 0, activeDuration: 0))
        #expect(TimingModel.evaluate(timing(duration: 0), localTime: 0).progress == nil)
    }
}
