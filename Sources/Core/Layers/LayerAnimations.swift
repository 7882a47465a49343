/// Adding, finding and removing animations (S4.3, S4.5, S4.6).
extension Layer {
    private static let anonymousKeyPrefix = "\u{1}anonymous-"

    /// Adds a copy of `animation` under `key` (replacing, with finished =
    /// false, any animation already there). A nil key gets a private one.
    /// `argument`: what errors call the animation (the C call's "a").
    public func addAnimation(_ animation: Animation, forKey key: String?,
                             argument: String = "animation") throws(LayerKitError) {
        try checkWritable()
        let copy = try addedCopy(of: animation, argument: argument)
        // S4.13: one transition per layer, always under "transition".
        let key = copy.animationKind == .transition ? "transition"
            : key ?? Layer.anonymousKeyPrefix + String(UInt(bitPattern: copy.handle))
        let now = mediaTime()
        let record = try makeRecord(copy, key: key, groupDuration: nil, now: now, runLoop: RunLoop.current,
                                    groups: Transaction.groupsForNewAnimation(), argument: argument)
        removeAnimationRecord(forKey: key)
        record.layer = self
        animationRecords.append(record)
        changed()
    }

    /// Whether addAnimation would take `animation`: the same checks, with
    /// nothing added.
    func checkAddable(_ animation: Animation) throws(LayerKitError) {
        _ = try makeRecord(addedCopy(of: animation), key: "check", groupDuration: nil, now: 0, runLoop: RunLoop.current,
                           groups: [])
    }

    /// The checked copy addAnimation adds, its duration resolved.
    private func addedCopy(of animation: Animation, argument: String = "animation") throws(LayerKitError) -> Animation {
        try animation.validateForAdding(argument)
        let copy = animation.copy()
        if copy.timing.duration <= 0 || copy.timing.duration.isNaN {
            // S4.11: a spring lasts until it settles; others take the transaction's duration (S4.3).
            copy.timing.duration = copy.animationKind == .spring ? copy.spring.settlingDuration
                : Transaction.animationDuration
        }
        return copy
    }

    /// The built-in action's basic animation, which the layer owns already
    /// and whose key path is known to name `property`: attached without the
    /// copy and the key-path checks of addAnimation (re-triggering thousands
    /// of implicit animations in one transaction costs this). It has no
    /// from, to or by value: it runs from the presentation value to the model.
    func attachBuiltIn(_ animation: Animation, forKey key: String, property: AnyProperty,
                       in transaction: Transaction.ThreadState) {
        assert(animation.fromValue == nil && animation.toValue == nil && animation.byValue == nil)
        if animation.timing.duration <= 0 || animation.timing.duration.isNaN {
            animation.timing.duration = Transaction.inherited(in: transaction).duration // S4.3
        }
        // S3.3: from the presentation value now (the render side's, so the
        // one it replaces still counts) to the new model value. Both ends
        // are set, so a running animation of the property beneath it no
        // longer shows (S4.14: a non-additive animation replaces what came
        // before); its end is not the stack's value below it.
        let record: AnimationRecord
        let now = mediaTime()
        let replacedIndex = animationRecords.firstIndex { $0.key == key }
        // The replaced animation's stopEarly visit to the render side, when
        // made with the presented lanes' (its lock once, not twice).
        var replacedWasStarted: Bool?? = nil
        if let slot = property.slot, slot.lanes <= 4,
           let (lanes, wasStarted) = RenderTree.shared.presentedLanes(
               of: self, slot: slot, at: now, stopping: replacedIndex.map { animationRecords[$0] }) {
            replacedWasStarted = wasStarted
            let model = withUnsafePointer(to: &state) { LaneMath.load(slot.field(in: $0), slot.lanes) }
            record = AnimationRecord(builtIn: key, animation: animation,
                                     track: .lanes(LaneTrack(slot: slot, from: lanes, to: model)), slot: slot,
                                     runLoop: RunLoop.current, groups: Transaction.groupsForNewAnimation(in: transaction),
                                     property: property)
        } else {
            let ends = builtInEnds(property, key: key, at: now)
            if case .transform(let offset)? = property.slot, case .transform(let from) = ends.from,
               case .transform(let to) = ends.to {
                record = AnimationRecord(builtIn: key, animation: animation,
                                         track: .transform(TransformTrack(offset: offset, from: from, to: to)),
                                         slot: .transform(offset), runLoop: RunLoop.current,
                                         groups: Transaction.groupsForNewAnimation(in: transaction), property: property)
            } else {
                ends.set(on: animation)
                record = AnimationRecord(key: key, animation: animation, previousValue: ends.from,
                                         runLoop: RunLoop.current, groups: Transaction.groupsForNewAnimation(in: transaction),
                                         property: property, subpath: [])
            }
        }
        record.layer = self
        animation.isAttached = true
        replaceAnimationRecord(at: replacedIndex, with: record, in: transaction, replacedWasStarted: replacedWasStarted)
    }

    /// Removes the animation at index `i` (the one under the new one's key),
    /// if any, and appends `record`: one new array (the render side shares
    /// the old one until the commit). `replacedWasStarted`: the replaced
    /// one's `stopEarly` visit to the render side, made already (nil: to make).
    private func replaceAnimationRecord(at i: Int?, with record: AnimationRecord,
                                        in transaction: Transaction.ThreadState, replacedWasStarted: Bool??) {
        changed(in: transaction)
        guard let i else {
            animationRecords.append(record)
            return
        }
        let old = animationRecords[i]
        if animationRecords.count == 1 {
            // The common case (one implicit animation re-triggered): no copying.
            animationRecords = [record]
        } else {
            var records: [AnimationRecord] = []
            records.reserveCapacity(animationRecords.count)
            records.append(contentsOf: animationRecords[..<i])
            records.append(contentsOf: animationRecords[(i + 1)...])
            records.append(record)
            animationRecords = records
        }
        old.detached = true
        if let replacedWasStarted { AnimationEvents.stopEarly(old, wasStarted: replacedWasStarted) }
        else { AnimationEvents.stopEarly(old) }
    }

    /// The value types by, additive and cumulative can add (Interpolation.add).
    private static let addableTypes: Set<ValueType> = [.number, .point, .size, .rect, .color, .transform, .list]

    /// Resolves an added copy's key path (or, for a group, each child's) and
    /// makes its keyframes ready; throws before anything changes.
    private func makeRecord(_ copy: Animation, key: String, groupDuration: Double?, now: Double, runLoop: RunLoop,
                            groups: [CompletionGroup], argument: String = "animation") throws(LayerKitError) -> AnimationRecord {
        if let groupDuration, copy.timing.duration <= 0 || copy.timing.duration.isNaN {
            // A child without a duration lasts as long as its group.
            copy.timing.duration = copy.animationKind == .spring ? copy.spring.settlingDuration : groupDuration
        }
        copy.isAttached = true
        if copy.animationKind == .group {
            var children: [AnimationRecord] = []
            for (i, child) in copy.animations.enumerated() {
                do {
                    children.append(try makeRecord(child, key: key, groupDuration: copy.timing.duration, now: now,
                                                   runLoop: runLoop, groups: [], argument: argument))
                } catch {
                    // The child by index, as animations.md says (a key path
                    // or a value refused in a large group named no child).
                    let at = "\(argument).animations[\(i)]"
                    let inner = error.message
                    throw LayerKitError(error.status, inner.hasPrefix(argument + ".")
                                        ? at + inner.dropFirst(argument.count) : at + ": " + inner)
                }
            }
            return AnimationRecord(key: key, animation: copy, previousValue: nil, runLoop: runLoop, groups: groups,
                                   property: nil, subpath: [], children: children)
        }
        if copy.animationKind == .transition {
            return AnimationRecord(key: key, animation: copy, previousValue: nil, runLoop: runLoop, groups: groups,
                                   property: nil, subpath: [])
        }
        let keyPath = copy.keyPath!
        let (property, subpath) = try resolve(keyPath, kind: state.layerKind)
        // S7.4: a cell that is not there is refused as setting it is (it
        // was taken and animated nothing); before the type, which reads it.
        try EmitterCellPaths.check(property, in: state)
        let type = try valueType(forKeyPath: keyPath)
        if property.key == "frame" {
            // S1.2: frame is not animatable (it is derived from position,
            // bounds and transform); an animation of it moved the layer.
            throw LayerKitError(.invalidArgument, "key_path: \"\(keyPath)\": frame is not animatable (S1.2); animate position and bounds")
        }
        let keyframes = copy.animationKind == .keyframe
            ? try KeyframeTrack(copy.keyframes, valueType: type, keyPath: keyPath) : nil
        if copy.animationKind == .spring || copy.animationKind == .basic {
            // S1.6: a value of another type is refused here, not left to
            // animate nothing. A basic animation may go to or from none
            // where the property has it (no background colour, no contents).
            for (name, v) in [("fromValue", copy.fromValue), ("toValue", copy.toValue), ("byValue", copy.byValue)] {
                guard let v, v.type != type else { continue }
                if v.type == .none, copy.animationKind == .basic, subpath.isEmpty, property.acceptsNone { continue }
                throw LayerKitError(.typeMismatch, "\(name): \"\(keyPath)\" takes \(type), got \(v.type)")
            }
        }
        if copy.animationKind != .transition, copy.byValue != nil || copy.additive || copy.cumulative,
           !Layer.addableTypes.contains(type) {
            // S4.8: by, additive and cumulative add values; a flag, a string,
            // a path or an image cannot be added, and such an animation was
            // taken and then animated nothing, not even its fromValue.
            let what = copy.byValue != nil ? "byValue" : copy.additive ? "additive" : "cumulative"
            throw LayerKitError(.invalidArgument, "\(what): \"\(keyPath)\" takes \(type), which cannot be added (by, additive and cumulative take numbers, points, sizes, rects, colours, transforms and lists of them)")
        }
        if case .transform(let by)? = copy.byValue, copy.fromValue == nil, copy.toValue != nil, by.inverted == nil {
            // to and by: from = to - by, which needs by's inverse
            throw LayerKitError(.invalidArgument, "byValue: a singular transform cannot be taken from toValue (from = to - by)")
        }
        // The presentation value now is where "to only", "by only" and
        // "none" animations start (S4.8); a layer never committed starts
        // from its model value.
        let previous = RenderTree.shared.presentationValue(of: self, property: property, subpath: subpath,
                                                           keyPath: keyPath, at: now)
            ?? (try? state.value(forKeyPath: keyPath))
        return AnimationRecord(key: key, animation: copy, previousValue: previous, runLoop: runLoop, groups: groups,
                               property: property, subpath: subpath, keyframes: keyframes)
    }

    public func animation(forKey key: String) -> Animation? {
        animationRecords.first { $0.key == key }?.animation
    }

    /// Keys in the order added; anonymous animations are not listed.
    public var animationKeys: [String] {
        animationRecords.map(\.key).filter { !$0.hasPrefix(Layer.anonymousKeyPrefix) }
    }

    /// S4.5: the layer returns to its model value at once; the delegate hears
    /// finished = false (S4.6).
    public func removeAnimation(forKey key: String) throws(LayerKitError) {
        try checkWritable()
        guard animationRecords.contains(where: { $0.key == key }) else {
            throw LayerKitError(.notFound, "key: no animation \"\(key)\" on the layer")
        }
        removeAnimationRecord(forKey: key)
    }

    public func removeAllAnimations() throws(LayerKitError) {
        try checkWritable()
        for record in animationRecords { removeAnimationRecord(forKey: record.key) }
    }

    private func removeAnimationRecord(forKey key: String) {
        guard let i = animationRecords.firstIndex(where: { $0.key == key }) else { return }
        let record = animationRecords.remove(at: i)
        record.detached = true
        changed()
        AnimationEvents.stopEarly(record)
    }

    /// A finished animation that is removed on completion leaves its layer.
    func animationFinished(_ record: AnimationRecord) {
        guard record.animation.removedOnCompletion, !record.detached,
              let i = animationRecords.firstIndex(where: { $0 === record }) else { return }
        animationRecords.remove(at: i)
        record.detached = true
        changed()
    }
}

/// Delivers animation starts and stops to the run loop of the thread that
/// added each animation (S4.6): never on the render thread.
enum AnimationEvents {
    static func deliver(_ events: [AnimationEvaluator.Event]) {
        for event in events {
            switch event {
            case .started(let record):
                // Only a delegate hears a start (thousands start in one
                // frame after a re-trigger, and this runs under the render
                // tree's lock).
                guard record.animation.delegate?.didStart != nil else { continue }
                record.runLoop.post {
                    record.animation.delegate?.didStart?(record.animation)
                }
            case .stopped(let record):
                record.runLoop.post {
                    ModelLock.shared.withLock { record.layer?.animationFinished(record) }
                    record.animation.delegate?.didStop?(record.animation, true)
                    for group in record.groups { group.animationEnded() }
                }
            }
        }
    }

    /// Removed or replaced before its end: finished = false if it had
    /// started; its transactions stop waiting for it either way.
    static func stopEarly(_ record: AnimationRecord) {
        stopEarly(record, wasStarted: RenderTree.shared.withLock { markStopped(record) })
    }

    /// Under the render tree's lock: marks the record stopped; whether it
    /// had started, or nil when it was stopped already.
    static func markStopped(_ record: AnimationRecord) -> Bool? {
        guard !record.stopped else { return nil }
        record.stopped = true
        return record.started
    }

    /// stopEarly after markStopped (`wasStarted` its answer): the delegate
    /// and the completion groups hear of it.
    static func stopEarly(_ record: AnimationRecord, wasStarted: Bool?) {
        guard let wasStarted else { return }
        if wasStarted, record.animation.delegate != nil {
            record.runLoop.post { record.animation.delegate?.didStop?(record.animation, false) }
        }
        // Counted down now, not by a posted callback (one per replaced
        // animation was most of re-triggering's cost): a completion this
        // lets fire is still posted to its run loop, after that didStop.
        for group in record.groups { group.animationEnded() }
    }
}
