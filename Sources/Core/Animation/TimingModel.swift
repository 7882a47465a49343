import Glibc

/// Where a timing node's local time falls relative to its active interval.
public enum TimingPhase: Sendable { case before, active, after }

/// What a timing node does at one local time (S4.4).
public struct TimingEvaluation: Equatable, Sendable {
    public var phase: TimingPhase
    /// 0...1 within the current iteration, after autoreverse folding, before
    /// the timing function; nil when the node has no effect (before or after
    /// its active interval without the matching fill).
    public var progress: Double?
    /// Completed iterations (for cumulative animations). At the very end of a
    /// whole number n of iterations this is n - 1 with progress 1 (0 when
    /// autoreversing): the last iteration, finished.
    public var iteration: Int
    /// duration * (autoreverses ? 2 : 1) * repeats, or repeatDuration, or
    /// .infinity.
    public var activeDuration: Double

    public init(phase: TimingPhase, progress: Double?, iteration: Int, activeDuration: Double) {
        self.phase = phase
        self.progress = progress
        self.iteration = iteration
        self.activeDuration = activeDuration
    }
}

extension TimingEvaluation {
    /// Whether a node so evaluated may still change as time goes on: not
    /// over, and its own speed not 0 (which holds it where it is: a frame
    /// would show the same).
    func movesOn(speed: Double) -> Bool { phase != .after && speed != 0 }
}

/// Timing as pure functions of (timing values, time): no state, so a layer's
/// or an animation's position in time can be computed for any instant,
/// repeatedly and from any thread.
public enum TimingModel {
    /// S4.2: t_local = (t_parent - beginTime) * speed + timeOffset.
    public static func localTime(_ parent: Double, _ t: TimingState) -> Double {
        (parent - t.beginTime) * t.speed + t.timeOffset
    }

    /// The parent time whose local time is `local`; nil when speed is 0 (every
    /// parent time maps to the same local time).
    public static func parentTime(_ local: Double, _ t: TimingState) -> Double? {
        guard t.speed != 0 else { return nil }
        return (local - t.timeOffset) / t.speed + t.beginTime
    }

    /// The length of one iteration: duration, twice that when autoreversing.
    public static func cycleDuration(_ t: TimingState) -> Double {
        t.duration * (t.autoreverses ? 2 : 1)
    }

    /// The length of the active interval (S4.4): repeatDuration when set,
    /// else one cycle times repeatCount (0 meaning once, infinity forever).
    /// Setting both is refused when the properties are set; should both
    /// arrive here, repeatDuration wins.
    public static func activeDuration(_ t: TimingState) -> Double {
        if t.repeatDuration > 0 { return t.repeatDuration }
        let cycle = cycleDuration(t)
        return t.repeatCount > 0 ? cycle * t.repeatCount : cycle
    }

    /// S4.4 and S4.1 for a node whose `duration` has been resolved (> 0).
    /// `localTime` is the node's own local time (`localTime(_:_:)`), so the
    /// active interval is [0, activeDuration). Before it the node shows its
    /// start (progress 0) when filling backwards; after it, where the active
    /// interval ended (progress 1, 0 after an autoreversed iteration, or
    /// mid-iteration for a fractional repeatCount) when filling forwards.
    /// A duration <= 0 is treated as an instantaneous node that has ended at
    /// local time 0. An infinite duration runs for ever at progress 0 (the
    /// from value; c-api.md: "infinity means forever"), or until a finite
    /// repeatDuration ends it.
    public static func evaluate(_ t: TimingState, localTime: Double) -> TimingEvaluation {
        let cycle = cycleDuration(t)
        let fillsBackwards = t.fillMode == .backwards || t.fillMode == .both
        let fillsForwards = t.fillMode == .forwards || t.fillMode == .both

        guard cycle > 0 else {   // (also NaN)
            if localTime < 0 || localTime.isNaN {
                return TimingEvaluation(phase: .before, progress: fillsBackwards ? 0 : nil,
                                        iteration: 0, activeDuration: 0)
            }
            return TimingEvaluation(phase: .after, progress: fillsForwards ? (t.autoreverses ? 0 : 1) : nil,
                                    iteration: 0, activeDuration: 0)
        }

        let active = activeDuration(t)
        if !(localTime >= 0) {  // also NaN
            return TimingEvaluation(phase: .before, progress: fillsBackwards ? 0 : nil,
                                    iteration: 0, activeDuration: active)
        }
        if localTime < active || active == .infinity {
            let (iteration, timeInCycle) = split(localTime, cycle)
            return TimingEvaluation(phase: .active, progress: fold(timeInCycle, t),
                                    iteration: iteration, activeDuration: active)
        }

        // After: where the active interval ended. A whole number of cycles
        // ends at the end of the last one, not the start of the next.
        let cycles = active / cycle
        let whole = cycles.rounded()
        let iteration: Int
        let timeInCycle: Double
        if whole >= 1, abs(cycles - whole) <= 1e-9 * whole {
            // (a repeatCount beyond Int's range: the count no longer matters)
            iteration = whole < Double(Int.max) ? Int(whole) - 1 : Int.max
            timeInCycle = cycle
        } else {
            (iteration, timeInCycle) = split(active, cycle)
        }
        return TimingEvaluation(phase: .after, progress: fillsForwards ? fold(timeInCycle, t) : nil,
                                iteration: iteration, activeDuration: active)
    }

    /// Whole cycles completed and the time into the current one, in [0, cycle).
    private static func split(_ time: Double, _ cycle: Double) -> (Int, Double) {
        let count = (time / cycle).rounded(.down)
        let remainder = time - count * cycle
        let within = remainder.isFinite ? min(max(remainder, 0), cycle) : 0
        // Beyond Int's range the count no longer matters to anyone.
        return (count < Double(Int.max) ? Int(count) : Int.max, within)
    }

    /// Progress within a cycle: 0 → 1 over `duration`, then back to 0 over a
    /// second `duration` when autoreversing.
    private static func fold(_ timeInCycle: Double, _ t: TimingState) -> Double {
        let p = timeInCycle / t.duration
        let folded = t.autoreverses && p > 1 ? 2 - p : p
        return min(max(folded, 0), 1)
    }
}
