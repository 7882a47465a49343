/// Adding, finding and removing animations (S4.3, S4.5, S4.6).
extension Layer {
    private static let anonymousKeyPrefix = "\u{1}anonymous-"

    /// Adds a copy of `animation` under `key` (replacing, with finished =
    /// false, any animation already there). A nil key gets a private one.
    public func addAnimation(_ animation: Animation, forKey key: String?) throws(LayerKitError) {
        try checkWritable()
        try animation.validateForAdding()
        let keyPath = animation.keyPath!
        _ = try valueType(forKeyPath: keyPath)
        let (property, subpath) = try resolve(keyPath, kind: state.layerKind)
        let copy = animation.copy()
        if copy.timing.duration <= 0 || copy.timing.duration.isNaN {
            copy.timing.duration = Transaction.animationDuration // S4.3
        }
        let key = key ?? Layer.anonymousKeyPrefix + String(UInt(bitPattern: copy.handle))
        removeAnimationRecord(forKey: key)
        // The presentation value now is where "to only", "by only" and
        // "none" animations start (S4.8); a layer never committed starts
        // from its model value.
        let previous = RenderTree.shared.presentationValue(of: self, keyPath: keyPath, at: mediaTime())
            ?? (try? state.value(forKeyPath: keyPath))
        let record = AnimationRecord(key: key, animation: copy, previousValue: previous,
                                     runLoop: RunLoop.current, groups: Transaction.groupsForNewAnimation(),
                                     property: property, subpath: subpath)
        record.layer = self
        copy.isAttached = true
        animationRecords.append(record)
        changed()
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
        let wasStarted: Bool? = RenderTree.shared.withLock {
            guard !record.stopped else { return nil }
            record.stopped = true
            return record.started
        }
        guard let wasStarted else { return }
        record.runLoop.post {
            if wasStarted { record.animation.delegate?.didStop?(record.animation, false) }
            for group in record.groups { group.animationEnded() }
        }
    }
}
