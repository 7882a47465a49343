import Testing
@testable import LayerKitCore

/// The render side's inline tracks (NodeTrack.swift) give exactly what the
/// records' path gives (S4.4, S4.8, S4.14), frame after frame in the node's
/// kept presented state, and after the committed state changes.
@Suite struct NodeTrackTests {
    private func record(_ keyPath: String, _ kind: Animation.Kind = .basic, from: Value?, to: Value?, by: Value?,
                        previous: Value?, configure: (Animation) -> Void = { _ in }) throws -> AnimationRecord {
        let a = Animation(kind: kind, keyPath: keyPath)
        (a.fromValue, a.toValue, a.byValue) = (from, to, by)
        a.timing.duration = 1
        configure(a)
        let (property, subpath) = try resolve(keyPath)
        return AnimationRecord(key: "k\(keyPath)\(Int.random(in: 0..<1_000_000))", animation: a, previousValue: previous,
                               runLoop: RunLoop.current, groups: [], property: property, subpath: subpath)
    }

    /// The records' path: a whole copy of the model with every animation applied.
    private func expected(_ node: RenderNode, at time: Double) -> LayerState {
        var state = node.state
        withUnsafeMutablePointer(to: &state) { s in
            _ = AnimationEvaluator.apply(node.animations, to: s, layerTime: time, model: node.statePointer, events: nil)
        }
        return state
    }

    private func evaluated(_ node: RenderNode, at time: Double) -> LayerState {
        let s = node.presentedForTracks()
        _ = node.tracks.withUnsafeMutableBufferPointer { tracks in
            AnimationEvaluator.apply(tracks: tracks, to: s, layerTime: time, model: node.statePointer, events: nil)
        }
        return s.pointee
    }

    private func same(_ a: LayerState, _ b: LayerState) -> Bool {
        a.opacity == b.opacity && a.position == b.position && a.bounds == b.bounds
            && a.shadowOffset == b.shadowOffset && a.cornerRadius == b.cornerRadius && a.transform == b.transform
            && a.zPosition == b.zPosition
    }

    @Test func inlineTracksAgreeWithTheRecordsS4_8() throws {
        let points = pointFromToByCombinations
        var model = LayerState()
        model.position = Point(x: 100, y: 200)
        model.bounds = Rect(x: 0, y: 0, width: 40, height: 30)
        model.opacity = 0.8
        var checked = 0
        for (from, to, by) in points {
            for (additive, cumulative) in [(false, false), (true, false), (false, true)] {
                for (repeats, reverses, fill) in [(0.0, false, FillMode.removed), (2.5, true, .forwards), (3, false, .both)] {
                    let configure: (Animation) -> Void = { a in
                        a.additive = additive
                        a.cumulative = cumulative
                        a.timing.repeatCount = repeats
                        a.timing.autoreverses = reverses
                        a.timing.fillMode = fill
                        a.timing.beginTime = 0.25
                        a.timingFunction = TimingFunction.named(.easeInEaseOut)
                    }
                    let node = RenderNode(id: 1, state: model)
                    node.animations = [
                        try record("position", from: from, to: to, by: by, previous: .point(Point(x: -3, y: 4)),
                                   configure: configure),
                        // Another field, and a second animation stacked on the first field.
                        try record("opacity", from: .number(0.2), to: .number(0.9), by: nil, previous: .number(0.5)),
                        try record("bounds", from: nil, to: .rect(Rect(x: 5, y: 5, width: 80, height: 10)), by: nil,
                                   previous: .rect(model.bounds)),
                        try record("position", from: nil, to: nil, by: .point(Point(x: 7, y: 9)),
                                   previous: .point(model.position)) { $0.additive = true },
                    ]
                    #expect(node.tracksWriteFieldsOnly)
                    #expect(node.tracks.allSatisfy { $0.kind == .inline })
                    // Frames in order, then backwards: the kept state is reset each time.
                    for time in [-1.0, 0.0, 0.3, 0.9, 1.3, 2.7, 3.1, 9, 1.1, 0.5] {
                        let want = expected(node, at: time), got = evaluated(node, at: time)
                        #expect(same(got, want), "at \(time): \(got.position) vs \(want.position), from \(String(describing: from)) to \(String(describing: to)) by \(String(describing: by)) additive \(additive) cumulative \(cumulative)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == points.count * 3 * 3 * 10)
    }

    /// A commit that changes fields no animation touches shows at the next frame.
    @Test func theKeptStateFollowsTheModel() throws {
        var model = LayerState()
        model.opacity = 0.5
        let node = RenderNode(id: 2, state: model)
        node.animations = [try record("position", from: .point(.zero), to: .point(Point(x: 10, y: 0)), by: nil,
                                      previous: nil)]
        #expect(evaluated(node, at: 0.5).position == Point(x: 5, y: 0))
        node.state.cornerRadius = 7
        node.state.position = Point(x: 99, y: 99)
        node.stateChanged()
        let after = evaluated(node, at: 0.5)
        #expect(after.cornerRadius == 7)
        #expect(after.position == Point(x: 5, y: 0))
        // The animation ended and is removed: the model's position shows again.
        node.animations[0].stopped = true
        #expect(evaluated(node, at: 2).position == Point(x: 99, y: 99))
    }

    /// Keyframes, groups and key paths inside a property take the whole-copy path.
    @Test func otherKindsAreNotInline() throws {
        let node = RenderNode(id: 3, state: LayerState())
        node.animations = [try record("position.x", from: .number(0), to: .number(1), by: nil, previous: nil)]
        #expect(!node.tracksWriteFieldsOnly)
        node.animations = [try record("opacity", .spring, from: .number(0), to: .number(1), by: nil, previous: nil)]
        #expect(node.tracksWriteFieldsOnly)
        #expect(node.tracks[0].kind == .field)
    }

    /// The presentation value a new implicit animation starts from (S3.3),
    /// from the tracks, equals the records' answer.
    @Test func presentedValueFromTracksAgreesS3_3() throws {
        var model = LayerState()
        model.position = Point(x: 10, y: 20)
        let node = RenderNode(id: 4, state: model)
        node.animations = [
            try record("position", from: nil, to: .point(Point(x: 50, y: 0)), by: nil, previous: .point(Point(x: 0, y: 0))),
            try record("position", from: nil, to: nil, by: .point(Point(x: 1, y: 1)), previous: nil) {
                $0.additive = true
                $0.timing.beginTime = 0.5
            },
        ]
        let (property, _) = try resolve("position")
        for time in [0.0, 0.25, 0.75, 2.0] {
            let want = AnimationEvaluator.presentedValue(of: property, node.animations, layerTime: time,
                                                         model: node.statePointer)
            #expect(RenderTree.inlinePresentedValue(of: node, property: property, at: time) == want, "at \(time)")
        }
    }

    /// transform.rotation.z and the other parts of a transform evaluate
    /// unboxed, over a cached decomposition, exactly as through Values (S4.9).
    @Test func transformPartsAgreeWithTheValuePathS4_9() throws {
        var model = LayerState()
        model.transform = Transform3D.rotation(0.3, 0, 0, 1).concatenating(.scale(2, 1.5, 1))
            .concatenating(.translation(10, -4, 3))
        let numberEnds: [(Value?, Value?, Value?)] = [
            (.number(0.5), .number(2), nil), (nil, .number(2), nil), (nil, nil, .number(-1)),
            (.number(0.5), nil, nil), (.number(0.5), nil, .number(3)), (nil, .number(2), .number(1)),
        ]
        var checked = 0
        for subpath in ["rotation.z", "rotation.x", "rotation", "scale", "scale.y", "translation.x", "translation.z"] {
            for (from, to, by) in numberEnds {
                for (additive, cumulative) in [(false, false), (true, false), (false, true)] {
                    let a = Animation(kind: .basic, keyPath: "transform." + subpath)
                    (a.fromValue, a.toValue, a.byValue) = (from, to, by)
                    a.additive = additive
                    a.cumulative = cumulative
                    let (property, parts) = try resolve("transform." + subpath)
                    let record = AnimationRecord(key: "k", animation: a, previousValue: .number(0.25),
                                                 runLoop: RunLoop.current, groups: [], property: property, subpath: parts)
                    guard case .transformPart? = record.fastTrack else {
                        Issue.record("transform.\(subpath): no typed track"); continue
                    }
                    for (progress, iteration) in [(0.0, 0), (0.3, 0), (0.3, 2), (1.0, 1)] {
                        var typed = model
                        withUnsafeMutablePointer(to: &typed) { s in
                            withUnsafePointer(to: model) { m in
                                record.fastTrack!.apply(a, progress: progress, iteration: iteration, to: s, model: m)
                            }
                        }
                        let base = try TransformKeyPath.value(of: model.transform, path: parts, keyPath: a.keyPath!)
                        guard let value = AnimationEvaluator.value(of: record, progress: progress, iteration: iteration,
                                                                   base: base, model: { base }) else {
                            Issue.record("no value"); continue
                        }
                        let general = try TransformKeyPath.setting(value, in: model.transform, path: parts,
                                                                   keyPath: a.keyPath!)
                        #expect(typed.transform == general, "transform.\(subpath) from \(String(describing: from)) to \(String(describing: to)) by \(String(describing: by)) additive \(additive) cumulative \(cumulative) at \(progress)")
                        checked += 1
                    }
                }
            }
        }
        // translation as a whole is a size.
        let a = Animation(kind: .basic, keyPath: "transform.translation")
        (a.fromValue, a.toValue) = (.size(Size(width: 0, height: 0)), .size(Size(width: 30, height: -8)))
        let (property, parts) = try resolve("transform.translation")
        let record = AnimationRecord(key: "t", animation: a, previousValue: nil, runLoop: RunLoop.current, groups: [],
                                     property: property, subpath: parts)
        var typed = model
        withUnsafeMutablePointer(to: &typed) { s in
            withUnsafePointer(to: model) { m in record.fastTrack?.apply(a, progress: 0.5, iteration: 0, to: s, model: m) }
        }
        let general = try TransformKeyPath.setting(.size(Size(width: 15, height: -4)), in: model.transform,
                                                   path: parts, keyPath: "transform.translation")
        #expect(typed.transform == general)
        #expect(checked == 7 * 6 * 3 * 4)
    }
}
