import Testing
@testable import LayerKitCore

/// What re-triggering's shortcuts must keep: an animation's rarer
/// parameters live in a box made at the first write (copies on add, S4.3,
/// must still own theirs), and a built-in animation keeps its start in its
/// lane track only (S3.3).
@Suite struct ImplicitAnimationTests {
    /// S4.3: a copy has every parameter of the original, and changing one
    /// of the two leaves the other as it was.
    @Test func aCopyOwnsItsParametersS4_3() {
        let a = Animation(kind: .keyframe, keyPath: "position")
        a.keyframes.values = [.point(Point(x: 0, y: 0)), .point(Point(x: 10, y: 5))]
        a.keyframes.keyTimes = [0, 1]
        a.keyframes.calculationMode = .cubic
        a.spring.damping = 3
        a.spring.initialVelocity = 2
        a.transition.type = .push
        a.transition.endProgress = 0.5
        let child = Animation(kind: .basic, keyPath: "opacity")
        child.toValue = .number(0.5)
        a.animations = [child]
        a.setUserValue(.number(7), forKey: "tag")

        a.fromValue = .point(Point(x: 1, y: 2))
        a.byValue = .point(Point(x: 3, y: 4))

        let c = a.copy()
        #expect(c.fromValue == .point(Point(x: 1, y: 2)) && c.toValue == nil && c.byValue == .point(Point(x: 3, y: 4)))
        // from, to and by are shared until one side changes them.
        a.toValue = .point(Point(x: 9, y: 9))
        c.fromValue = nil
        #expect(c.toValue == nil && a.fromValue == .point(Point(x: 1, y: 2)))
        #expect(a.toValue == .point(Point(x: 9, y: 9)) && c.fromValue == nil && c.byValue == a.byValue)
        a.toValue = nil
        #expect(c.keyframes.values == a.keyframes.values && c.keyframes.keyTimes == [0, 1])
        #expect(c.keyframes.calculationMode == .cubic)
        #expect(c.spring == a.spring && c.spring.damping == 3)
        #expect(c.transition == a.transition && c.transition.type == .push)
        #expect(c.animations.count == 1 && c.animations[0] !== child && c.animations[0].toValue == .number(0.5))
        #expect(c.userValues == ["tag": .number(7)])

        c.keyframes.values.append(.point(Point(x: 1, y: 1)))
        c.spring.damping = 9
        c.transition.type = .reveal
        c.animations[0].toValue = .number(0.1)
        c.animations.append(Animation(kind: .basic, keyPath: "bounds"))
        c.setUserValue(.number(8), forKey: "tag")
        #expect(a.keyframes.values.count == 2 && a.spring.damping == 3 && a.transition.type == .push)
        #expect(a.animations.count == 1 && child.toValue == .number(0.5))
        #expect(a.userValues == ["tag": .number(7)])

        a.keyframes.keyTimes = [0, 0.5]
        a.setUserValue(.none, forKey: "tag")
        #expect(c.keyframes.keyTimes == [0, 1] && c.userValues == ["tag": .number(8)])
        #expect(a.userValues.isEmpty)
    }

    /// An animation that never set them reads the defaults, and so do its
    /// copies; removing a user value it does not have changes nothing.
    @Test func unsetParametersReadAsDefaults() {
        let a = Animation(kind: .basic, keyPath: "opacity")
        a.setUserValue(.none, forKey: "nothing")
        a.fromValue = nil
        for x in [a, a.copy()] {
            #expect(x.fromValue == nil && x.toValue == nil && x.byValue == nil)
            #expect(x.keyframes.values.isEmpty && x.keyframes.path == nil && x.keyframes.calculationMode == .linear)
            #expect(x.spring == SpringParameters())
            #expect(x.transition == TransitionParameters())
            #expect(x.animations.isEmpty && x.userValues.isEmpty)
        }
        let b = Animation(kind: .spring, keyPath: "opacity")
        b.spring.stiffness = 300
        #expect(a.spring.stiffness == 100 && b.spring.stiffness == 300)
    }

    /// S3.3: re-triggering an implicit animation mid-flight starts the new
    /// one from the presentation value, held in its lane track; the records'
    /// Value path (which reads it back as `previousValue`) and the inline
    /// tracks give the same presentation at every time after.
    @Test func reTriggeredStartIsThePresentationS3_3() throws {
        let (root, layer) = try committedPair()
        let (property, _) = try resolve("position")
        let linear = TimingFunction.named(.linear)
        try ModelLock.shared.withLock {
            Transaction.begin()
            Transaction.animationDuration = 1000
            Transaction.animationTimingFunction = linear
            try layer.set(LayerProperties.position, Point(x: 1005, y: 5))
            try Transaction.commit()
        }
        let before = try #require(RenderTree.shared.presentationValue(of: layer, property: property, subpath: [],
                                                                       keyPath: "position", at: mediaTime()))
        try ModelLock.shared.withLock {
            Transaction.begin()
            Transaction.animationDuration = 1000
            try layer.set(LayerProperties.position, Point(x: 5, y: 505))
            try Transaction.commit()
        }
        let after = try #require(RenderTree.shared.presentationValue(of: layer, property: property, subpath: [],
                                                                      keyPath: "position", at: mediaTime()))
        let node = try #require(layer.renderNode)
        #expect(node.animations.count == 1)
        let record = node.animations[0]
        guard case .lanes(let track)? = record.fastTrack else {
            Issue.record("the built-in animation has no lane track")
            return
        }
        // S3.3: from the presentation value to the new model value, both set
        // (and the start kept as the value before it too)
        #expect(track.present == 1 | 2 | 8)
        #expect(track.to == SIMD4(5, 505, 0, 0))
        #expect(record.animation.toValue == .point(Point(x: 5, y: 505)))
        // The first animation moves x up from 5 to 1005: the start lies between
        // the presentation just before the set and just after it.
        guard case .point(let start)? = record.previousValue, case .point(let b) = before, case .point(let a) = after
        else {
            Issue.record("previousValue \(String(describing: record.previousValue)), not a point")
            return
        }
        #expect(start.x > 5 && b.x <= start.x && start.x <= a.x + 1e-9 && start.y == 5)
        #expect(track.previous == SIMD4(start.x, start.y, 0, 0))
        #expect(track.from == track.previous && record.animation.fromValue == .point(start))
        let now = mediaTime()
        for t in [now, now + 1, now + 250, now + 999, now + 2000] {
            let want = AnimationEvaluator.presentedValue(of: property, node.animations,
                                                         layerTime: RenderTree.localTime(of: node, at: t),
                                                         model: node.statePointer)
            let got = RenderTree.inlinePresentedValue(of: node, property: property, at: t)
            guard case .point(let w) = want, case .point(let g)? = got else {
                Issue.record("at \(t - now): \(want), \(String(describing: got))")
                continue
            }
            #expect(abs(w.x - g.x) < 1e-9 && abs(w.y - g.y) < 1e-9, "at +\(t - now): \(w) vs \(g)")
        }
        withExtendedLifetime(root) {}
    }

    /// A 10x10 layer in a 100x100 root, both committed.
    private func committedPair() throws -> (root: Layer, layer: Layer) {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let layer = makeLayer(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        try root.addSublayer(layer)
        ModelLock.shared.withLock { Transaction.flush() }
        return (root, layer)
    }

    /// S3.3 for `transform`: a re-triggered rotation starts from the
    /// presentation value, which the node's whole-transform tracks give
    /// (RenderTree.trackedTransform, through their kept decompositions):
    /// the same doubles as the records' Value path at every time, with one
    /// or two animations on the transform, and the model alone without any.
    @Test func reTriggeredTransformStartIsThePresentationS3_3() throws {
        let (root, layer) = try committedPair()
        let (property, _) = try resolve("transform")
        let node = try #require(layer.renderNode)
        #expect(RenderTree.trackedTransform(of: node, at: mediaTime()) == Transform3D.identity)
        for (angle, function) in [(2.0, TimingFunction.named(.linear)), (-1.0, .named(.easeInEaseOut)), (0.5, .named(.easeIn))] {
            try ModelLock.shared.withLock {
                Transaction.begin()
                Transaction.animationDuration = 1000
                Transaction.animationTimingFunction = function
                try layer.set(LayerProperties.transform, .rotation(angle, 0, 0, 1).concatenating(.scale(1.5, 1, 1)))
                try Transaction.commit()
            }
            let now = mediaTime()
            for t in [now, now + 1, now + 250, now + 999, now + 2000] {
                let want = AnimationEvaluator.presentedValue(of: property, node.animations,
                                                             layerTime: RenderTree.localTime(of: node, at: t),
                                                             model: node.statePointer)
                let got = RenderTree.trackedTransform(of: node, at: t)
                #expect(got.map { Value.transform($0) } == want, "at +\(t - now)")
            }
        }
        // An explicit animation of a part of the transform: another path answers.
        let part = Animation(kind: .basic, keyPath: "transform.rotation.z")
        part.toValue = .number(1)
        part.timing.duration = 1000
        try ModelLock.shared.withLock {
            try layer.addAnimation(part, forKey: "part")
            Transaction.flush()
        }
        #expect(RenderTree.trackedTransform(of: node, at: mediaTime() + 1) == nil)
        withExtendedLifetime(root) {}
    }
}
