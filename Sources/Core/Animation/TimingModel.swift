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
    /// When, in its parent's time, a node so evaluated may next change:
    /// -infinity while it moves on (active, and its own speed not 0, which
    /// holds it where it is: a frame would show the same), `beginTime` when
    /// it has yet to begin (at any speed its active interval starts at the
    /// parent time beginTime, `evaluate(_:parentTime:)`: even a node of
    /// speed 0 starts to show then, and its start is heard), +infinity once
    /// it is over. Before its beginTime a node is static (nothing, or its
    /// backwards fill's start value): no frame is needed until it begins.
    func nextChange(_ t: TimingState) -> Double {
        switch phase {
        case .before: t.beginTime.isNaN ? -.infinity : t.beginTime
        case .active: t.speed != 0 ? -.infinity : .infinity
        case .after: .infinity
        }
    }
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

    /// `change`, a time in the node's local time at which something under
    /// it may next change (TimingEvaluation.nextChange), in its parent's
    /// time: -infinity (now) stays; a later time is reached only when the
    /// node's time runs forwards (speed > 0); at speed 0 nothing under it
    /// changes, and run backwards its local time never comes (+infinity).
    public static func parentChange(_ change: Double, _ t: TimingState) -> Double {
        if t.speed == 0 || change == .infinity { return .infinity }
        if change == -.infinity { return change }
        guard t.speed > 0, let parent = parentTime(change, t), !parent.isNaN else {
            return t.speed > 0 ? -.infinity : .infinity   // (NaN: uncertain, so now)
        }
        return parent
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

    /// The node's active time: how far into its active interval
    /// `localTime` is, `(t_parent - beginTime) * |speed|`. As in Core
    /// Animation, timeOffset moves where in its iterations a node starts,
    /// not when it is active, and a negative speed plays the iterations
    /// backwards over the same interval of parent time.
    public static func activeTime(_ localTime: Double, _ t: TimingState) -> Double {
        // (exactly localTime without an offset at a positive speed, the usual case)
        let shifted = t.timeOffset == 0 ? localTime : localTime - t.timeOffset
        return t.speed < 0 ? -shifted : shifted
    }

    /// S4.4 and S4.1 for a node whose `duration` has been resolved (> 0).
    /// `localTime` is the node's own local time (`localTime(_:_:)`, its
    /// timeOffset included). The node is active while its active time
    /// (`activeTime(_:_:)`) is within [0, activeDuration), and its
    /// iterations are read at `localTime`, wrapping past their end: a 1 s
    /// animation with timeOffset 0.25 plays 0.25...1, then 0...0.25, and
    /// ends after 1 s; speed -1 with timeOffset 1 plays it from 1 back to 0.
    /// Before the interval the node shows where it starts (progress 0
    /// without an offset) when filling backwards; after it, where the
    /// interval ended (progress 1, 0 after an autoreversed iteration, or
    /// mid-iteration for a fractional repeatCount or an offset) when filling
    /// forwards. A duration <= 0 is treated as an instantaneous node that
    /// has ended at active time 0. An infinite duration runs for ever at
    /// progress 0 (the from value; c-api.md: "infinity means forever"), or
    /// until a finite repeatDuration ends it.
    public static func evaluate(_ t: TimingState, localTime: Double) -> TimingEvaluation {
        let cycle = cycleDuration(t)
        let fillsBackwards = t.fillMode == .backwards || t.fillMode == .both
        let fillsForwards = t.fillMode == .forwards || t.fillMode == .both
        let reversed = t.speed < 0
        let time = activeTime(localTime, t)

        guard cycle > 0 else {   // (also NaN)
            if time < 0 || time.isNaN {
                return TimingEvaluation(phase: .before, progress: fillsBackwards ? 0 : nil,
                                        iteration: 0, activeDuration: 0)
            }
            return TimingEvaluation(phase: .after, progress: fillsForwards ? (t.autoreverses ? 0 : 1) : nil,
                                    iteration: 0, activeDuration: 0)
        }

        let active = activeDuration(t)
        if !(time >= 0) {  // also NaN
            guard fillsBackwards else {
                return TimingEvaluation(phase: .before, progress: nil, iteration: 0, activeDuration: active)
            }
            // Where the interval starts: the offset's place in the iterations.
            let (iteration, timeInCycle) = split(wrapped(t.timeOffset, active, endInclusive: reversed), cycle,
                                                 endInclusive: reversed)
            return TimingEvaluation(phase: .before, progress: fold(timeInCycle, t),
                                    iteration: iteration, activeDuration: active)
        }
        if time < active || active == .infinity {
            // Played backwards, a cycle is entered at its end.
            let (iteration, timeInCycle) = split(wrapped(localTime, active, endInclusive: reversed), cycle,
                                                 endInclusive: reversed)
            return TimingEvaluation(phase: .active, progress: fold(timeInCycle, t),
                                    iteration: iteration, activeDuration: active)
        }

        // After: where the active interval ended. A whole number of cycles
        // played forwards ends at the end of the last one, not the start of
        // the next (backwards, at the start of the cycle it ended in).
        let end = wrapped(t.timeOffset + (reversed ? -active : active), active, endInclusive: !reversed)
        let cycles = end / cycle
        let whole = cycles.rounded()
        let iteration: Int
        let timeInCycle: Double
        if abs(cycles - whole) <= 1e-9 * max(abs(whole), 1) {
            // (a repeatCount beyond Int's range: the count no longer matters)
            let count = whole < Double(Int.max) ? Int(max(whole, 0)) : Int.max
            if reversed || whole < 1 {
                (iteration, timeInCycle) = (count, 0)
            } else {
                (iteration, timeInCycle) = (count - 1, cycle)
            }
        } else {
            (iteration, timeInCycle) = split(end, cycle, endInclusive: false)
        }
        return TimingEvaluation(phase: .after, progress: fillsForwards ? fold(timeInCycle, t) : nil,
                                iteration: iteration, activeDuration: active)
    }

    /// S4.4 at the parent's time `parent`: `evaluate(_:localTime:)` at the
    /// node's local time, except that a node whose speed is 0 is before its
    /// active interval until its beginTime (the interval is [beginTime, ∞)
    /// of parent time): its local time is timeOffset at every parent time,
    /// so the local time alone took it as active (and started) long before
    /// it began.
    @inline(__always)
    public static func evaluate(_ t: TimingState, parentTime parent: Double) -> TimingEvaluation {
        if t.speed == 0 && parent < t.beginTime {
            // (an active time of -infinity: the before phase, with its
            // backwards fill where the interval starts)
            return evaluate(t, localTime: -.infinity)
        }
        return evaluate(t, localTime: localTime(parent, t))
    }

    /// `time` wrapped into the active interval's [0, active) ((0, active]
    /// with `endInclusive`), as the iterations are read: past their end
    /// they start again from the first, before their start (a negative
    /// offset, or played backwards) they continue from the last. Unwrapped,
    /// a repeated animation with an offset showed an iteration it does not
    /// have (cumulative 2 repeats with offset 0.5 rose to 25 of 20), and
    /// one played backwards with 1.5 repeats went through its iterations
    /// forwards. An infinite interval does not wrap.
    private static func wrapped(_ time: Double, _ active: Double, endInclusive: Bool) -> Double {
        guard active.isFinite, active > 0, time.isFinite else { return time }
        if endInclusive ? (time > 0 && time <= active) : (time >= 0 && time < active) { return time }
        var r = fmod(time, active)
        if r < 0 { r += active }
        if r >= active { r = 0 }   // (a remainder a rounding below active, moved up)
        return endInclusive && r == 0 ? active : r
    }

    /// Whole cycles completed and the time into the current one: in
    /// [0, cycle), or in (0, cycle] with `endInclusive` (a time on a cycle's
    /// boundary then ends the cycle before it). Times before 0 (a negative
    /// offset's, or played backwards past 0) wrap into the cycles before the
    /// first, counted as the first.
    private static func split(_ time: Double, _ cycle: Double, endInclusive: Bool) -> (Int, Double) {
        var count = (time / cycle).rounded(.down)
        if endInclusive && count * cycle == time { count -= 1 }
        let remainder = time - count * cycle
        let within = remainder.isFinite ? min(max(remainder, 0), cycle) : 0
        // Beyond Int's range the count no longer matters to anyone.
        return (count < 0 ? 0 : count < Double(Int.max) ? Int(count) : Int.max, within)
    }

    /// Progress within a cycle: 0 → 1 over `duration`, then back to 0 over a
    /// second `duration` when autoreversing.
    private static func fold(_ timeInCycle: Double, _ t: TimingState) -> Double {
        let p = timeInCycle / t.duration
        let folded = t.autoreverses && p > 1 ? 2 - p : p
        return min(max(folded, 0), 1)
    }
}
