/// Applies a layer's animations to its committed state at a time (S4, S5.1):
/// a pure function of (state, animations, time), apart from noting which
/// animations started and stopped when the caller asks for events.
enum AnimationEvaluator {
    enum Event {
        case started(AnimationRecord)
        case stopped(AnimationRecord)
    }

    /// `layerTime` is the layer's local time (S4.2). Animations apply in the
    /// order added; a non-additive one replaces what came before it, an
    /// additive one adds to it (S4.14).
    /// Returns when, in `layerTime`'s terms, a value may next change
    /// (TimingEvaluation.nextChange, the earliest of the animations'):
    /// -infinity while one moves (the render loop keeps drawing), the
    /// beginTime of one yet to begin, +infinity when none will change.
    @discardableResult
    /// `model` is the committed state, read by "from only" animations (S4.8);
    /// it is passed by address so that no frame copies it.
    static func apply(_ records: [AnimationRecord], to state: UnsafeMutablePointer<LayerState>, layerTime: Double,
                      model: UnsafePointer<LayerState>, events: UnsafeMutablePointer<[Event]>?) -> Double {
        var next = Double.infinity
        for record in records {
            let animation = record.animation
            let evaluation = TimingModel.evaluate(animation.timing, parentTime: layerTime)
            next = min(next, evaluation.nextChange(animation.timing))
            if let events { note(record, evaluation.phase, events) }
            // A finished animation that is removed on completion no longer
            // shows (S4.5), whether or not a frame has noted its end yet (a
            // presentation at a time after it, S5.1).
            if animation.removedOnCompletion && evaluation.phase == .after { continue }
            guard let progress = evaluation.progress else { continue }
            if let fast = record.fastTrack {
                fast.apply(animation, progress: progress, iteration: evaluation.iteration, to: state, model: model)
                continue
            }
            applyGeneral(record, progress: progress, iteration: evaluation.iteration, atEnd: evaluation.phase == .after,
                         to: state, model: model)
        }
        return next
    }

    /// Notes the starts and ends of animations that are not applied (a
    /// layer not drawn this frame, S4.6) and returns when one may next
    /// change its value, as `apply` does.
    static func noteEvents(_ records: [AnimationRecord], layerTime: Double,
                           events: UnsafeMutablePointer<[Event]>) -> Double {
        var next = Double.infinity
        for record in records {
            let timing = record.animation.timing
            let evaluation = TimingModel.evaluate(timing, parentTime: layerTime)
            next = min(next, evaluation.nextChange(timing))
            note(record, evaluation.phase, events)
        }
        return next
    }

    /// The record's start once its active interval begins, its end once it
    /// is over: each noted once (S4.6). One the model stopped before it
    /// began (removed or replaced, not yet committed) never starts: nothing
    /// would report its stop.
    @inline(__always)
    private static func note(_ record: AnimationRecord, _ phase: TimingPhase, _ events: UnsafeMutablePointer<[Event]>) {
        if !record.started && !record.stopped && phase != .before {
            record.started = true
            events.pointee.append(.started(record))
        }
        if phase == .after && !record.stopped {
            record.stopped = true
            events.pointee.append(.stopped(record))
        }
    }

    /// Groups, keyframes, and basic and spring animations that have no
    /// typed track (key paths inside a property, other types): through Values,
    /// except path animations, which write their point directly.
    /// `atEnd`: the animation is past its active interval, filling forwards
    /// (a group's children that end with it show their ends then).
    private static func applyGeneral(_ record: AnimationRecord, progress: Double, iteration: Int, atEnd: Bool,
                                     to state: UnsafeMutablePointer<LayerState>, model: UnsafePointer<LayerState>) {
        let animation = record.animation
        switch animation.animationKind {
        case .group:
            // S4.12: the children see the group's (eased) time; the group's
            // own interval clips them.
            let eased = animation.timingFunction?.evaluate(progress) ?? progress
            let groupTime = eased * animation.timing.duration
            for child in record.children {
                var timing = child.animation.timing
                let local = TimingModel.localTime(groupTime, timing)
                var evaluation = TimingModel.evaluate(timing, parentTime: groupTime)
                if atEnd, evaluation.progress == nil && evaluation.phase == .after
                    && abs(TimingModel.activeTime(local, timing) - evaluation.activeDuration) <= 1e-9 * max(1, evaluation.activeDuration) {
                    // A child ending with its group shows its end while the
                    // group fills. A child ending mid-group ends there, its
                    // interval half-open (it showed its end value at that
                    // instant, filling or not).
                    timing.fillMode = .forwards
                    evaluation = TimingModel.evaluate(timing, parentTime: groupTime)
                }
                guard let p = evaluation.progress else { continue }
                if let fast = child.fastTrack {
                    fast.apply(child.animation, progress: p, iteration: evaluation.iteration, to: state, model: model)
                } else {
                    applyGeneral(child, progress: p, iteration: evaluation.iteration, atEnd: evaluation.phase == .after,
                                 to: state, model: model)
                }
            }
        case .keyframe:
            guard let track = record.keyframes else { return }
            let eased = track.ignoresTimingFunction ? progress : animation.timingFunction?.evaluate(progress) ?? progress
            if track.followsPath, !animation.additive, !animation.cumulative, let slot = record.slot {
                // The common path animation, without boxing each step in Values.
                guard let (point, angle) = track.pathPoint(at: eased), slot.write(.point(point), to: state) else { return }
                if let angle {
                    state.pointee.transform = Transform3D.rotation(angle, 0, 0, 1).concatenating(state.pointee.transform)
                }
                return
            }
            guard let (raw, angle) = track.value(at: eased),
                  let value = keyframeValue(record, raw, progress: eased, iteration: iteration, base: read(record, state))
            else { return }
            write(value, record, state)
            if let angle {
                // rotationMode: turn the layer along the path, on top of its transform.
                state.pointee.transform = Transform3D.rotation(angle, 0, 0, 1).concatenating(state.pointee.transform)
            }
        case .transition:
            // Drawn by the display list builder from the node's frozen "before".
            return
        case .basic, .spring:
            guard let value = value(of: record, progress: progress, iteration: iteration,
                                    base: read(record, state), model: { read(record, model) }) else { return }
            write(value, record, state)
        }
    }

    /// Additive and cumulative keyframe animations (S4.8's rules, applied
    /// to the keyframe value): each repeat adds last - first, additive adds
    /// the result to the property's value.
    private static func keyframeValue(_ record: AnimationRecord, _ raw: Value, progress: Double, iteration: Int,
                                      base: Value?) -> Value? {
        let a = record.animation
        var v = raw
        if a.accumulates && iteration > 0, let track = record.keyframes, let first = track.value(at: 0)?.0,
           let last = track.value(at: 1)?.0, let step = Interpolation.subtract(last, first),
           let offset = Interpolation.scale(step, by: Double(iteration)), let sum = Interpolation.add(v, offset) {
            v = sum
        }
        if a.additive {
            guard let base else { return nil }
            return Interpolation.add(base, v)
        }
        return v
    }

    /// S4.8: the value of a basic animation at `progress` (0...1, before its timing function).
    /// The whole value of one property with `records` (all animating it)
    /// applied, without events: what a change of it animates from (S3.3).
    static func presentedValue(of property: AnyProperty, _ records: [AnimationRecord], layerTime: Double,
                               model: UnsafePointer<LayerState>) -> Value {
        // Keyframes, springs and groups: apply to a copy of the state.
        if records.contains(where: { $0.animation.animationKind != .basic }) {
            var state = model.pointee
            withUnsafeMutablePointer(to: &state) { s in
                _ = apply(records, to: s, layerTime: layerTime, model: model, events: nil)
            }
            return withUnsafePointer(to: &state) { property.read($0) }
        }
        var whole = property.read(model)
        for record in records {
            let animation = record.animation
            let evaluation = TimingModel.evaluate(animation.timing, parentTime: layerTime)
            if animation.removedOnCompletion && evaluation.phase == .after { continue }   // (as in apply)
            let base = record.subpath.isEmpty ? whole
                : try? KeyPathParts.component(of: whole, path: record.subpath, keyPath: animation.keyPath ?? "")
            guard let progress = evaluation.progress,
                  let value = value(of: record, progress: progress, iteration: evaluation.iteration, base: base,
                                    model: { read(record, model) }) else { continue }
            if record.subpath.isEmpty {
                whole = value
            } else if let updated = try? KeyPathParts.replacing(in: whole, path: record.subpath, with: value,
                                                                 keyPath: animation.keyPath ?? "") {
                whole = updated
            }
        }
        return whole
    }

    /// The animated key path's value in `state`, through the resolved row.
    private static func read(_ record: AnimationRecord, _ state: UnsafePointer<LayerState>) -> Value? {
        guard let property = record.property else { return nil }
        if let slot = record.slot { return slot.read(state) }
        let whole = property.read(state)
        if record.subpath.isEmpty { return whole }
        return try? KeyPathParts.component(of: whole, path: record.subpath, keyPath: record.animation.keyPath ?? "")
    }

    private static func write(_ value: Value, _ record: AnimationRecord, _ state: UnsafeMutablePointer<LayerState>) {
        guard let property = record.property else { return }
        if let slot = record.slot, slot.write(value, to: state) { return }
        if record.subpath.isEmpty {
            _ = property.setState(&state.pointee, value)
        } else if let whole = try? KeyPathParts.replacing(in: property.read(state), path: record.subpath,
                                                           with: value, keyPath: record.animation.keyPath ?? "") {
            _ = property.setState(&state.pointee, whole)
        }
    }

    static func value(of record: AnimationRecord, progress: Double, iteration: Int, base: Value?,
                      model: () -> Value?) -> Value? {
        let a = record.animation
        guard let base else { return nil }
        let previous = record.previousValue ?? base
        let from: Value, to: Value
        switch (a.fromValue, a.toValue, a.byValue) {
        case let (f?, t?, _): (from, to) = (f, t)
        case let (f?, nil, b?): guard let t = Interpolation.add(f, b) else { return nil }; (from, to) = (f, t)
        case let (nil, t?, b?): guard let f = Interpolation.subtract(t, b) else { return nil }; (from, to) = (f, t)
        case let (f?, nil, nil): (from, to) = (f, model() ?? base)
        case let (nil, t?, nil): (from, to) = (a.additive ? zero(like: t) ?? previous : previous, t)
        case let (nil, nil, b?):
            if a.additive { guard let z = zero(like: b) else { return nil }; (from, to) = (z, b) }
            else { guard let t = Interpolation.add(previous, b) else { return nil }; (from, to) = (previous, t) }
        case (nil, nil, nil): (from, to) = (previous, base)
        }
        let eased = Interpolation.fraction(a, progress)
        guard var v = Interpolation.interpolate(from, to, eased) else { return nil }
        if a.accumulates && iteration > 0, let step = Interpolation.subtract(to, from),
           let offset = Interpolation.scale(step, by: Double(iteration)), let sum = Interpolation.add(v, offset) {
            v = sum
        }
        if a.additive { return Interpolation.add(base, v) }
        return v
    }

    /// The identity for add, of the value's type.
    private static func zero(like v: Value) -> Value? {
        switch v {
        case .number: .number(0)
        case .point: .point(.zero)
        case .size: .size(.zero)
        case .rect: .rect(.zero)
        case .color: .color(.clear)
        case .transform: .transform(.identity)
        default: nil
        }
    }
}
