import CLayerKit
import Testing
@testable import LayerKitCore

@Suite struct DamageTests {
    private func damage(_ tracker: inout DamageTracker, _ root: Layer) -> lk_dl_box {
        var builder = DisplayListBuilder()
        builder.build(root: root)
        return tracker.damage(ops: builder.opsPointer, count: builder.count, images: builder.currentImages,
                              width: 200, height: 100, runs: builder.variableRuns)
    }

    @Test func onlyWhatChangedIsRedrawn() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        try root.set(LayerProperties.backgroundColor, Color(r: 0, g: 0, b: 0, a: 1))
        let square = makeLayer(frame: Rect(x: 10, y: 10, width: 10, height: 10))
        try square.set(LayerProperties.backgroundColor, Color(r: 1, g: 0, b: 0, a: 1))
        try root.addSublayer(square)
        var tracker = DamageTracker()
        let first = damage(&tracker, root)
        #expect(first.x == 0 && first.y == 0 && first.width == 200 && first.height == 100) // no previous frame
        let same = damage(&tracker, root)
        #expect(same.width == 0 && same.height == 0)                                     // nothing changed
        try square.setFrame(Rect(x: 50, y: 10, width: 10, height: 10))
        let moved = damage(&tracker, root)
        // old (10...20) and new (50...60), one pixel of margin
        #expect(moved.x == 9 && moved.y == 9 && moved.width == 52 && moved.height == 12)
        try square.set(LayerProperties.hidden, true)
        let structure = damage(&tracker, root)
        #expect(structure.width == 200 && structure.height == 100)                       // an op went away
    }

    /// A clip that changes damages what it clips, before and after, not the
    /// whole output: a masksToBounds layer resized over a wider sublayer,
    /// then moved.
    @Test func aChangedClipDamagesWhatItClipsS6_1() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        try root.set(LayerProperties.backgroundColor, Color(r: 0, g: 0, b: 0, a: 1))
        let clipper = makeLayer(frame: Rect(x: 10, y: 10, width: 40, height: 40))
        try clipper.set(LayerProperties.masksToBounds, true)
        let wide = makeLayer(frame: Rect(x: 0, y: 0, width: 60, height: 20))
        try wide.set(LayerProperties.backgroundColor, Color(r: 1, g: 0, b: 0, a: 1))
        try clipper.addSublayer(wide)
        try root.addSublayer(clipper)
        var tracker = DamageTracker()
        _ = damage(&tracker, root)
        // Narrower: only the clip's op changes; the sublayer (10...70, 10...30) may show less of itself.
        try clipper.setFrame(Rect(x: 10, y: 10, width: 30, height: 40))
        let narrowed = damage(&tracker, root)
        #expect(narrowed.x == 9 && narrowed.y == 9 && narrowed.width == 62 && narrowed.height == 22)
        let same = damage(&tracker, root)
        #expect(same.width == 0 && same.height == 0)
        // Moved down by 50: the sublayer's boxes before and after.
        try clipper.setFrame(Rect(x: 10, y: 60, width: 30, height: 40))
        let moved = damage(&tracker, root)
        #expect(moved.x == 9 && moved.y == 9 && moved.width == 62 && moved.height == 72)
    }
}

extension DamageTests {
    /// Two cards in a transform layer that start crossing are cut into
    /// pieces (S6.3, S7.6): the list has more ops, but only the space's
    /// part of the output is damaged, not the whole (a square beside it
    /// stays out of the box). Stopping again, the same; a repeat, nothing.
    @Test func cardsThatStartCrossingDamageOnlyTheirSpaceS6_3() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        try root.set(LayerProperties.backgroundColor, Color(r: 0, g: 0, b: 0, a: 1))
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 400
        try root.set(LayerProperties.sublayerTransform, perspective)
        let space = Layer(layerKind: .transform)
        try space.setFrame(Rect(x: 0, y: 0, width: 120, height: 100))
        try root.addSublayer(space)
        var cards: [Layer] = []
        for i in 0..<2 {
            let card = makeLayer(frame: Rect(x: 20, y: 20, width: 80, height: 60))
            try card.set(LayerProperties.backgroundColor, Color(r: Double(i), g: 0.3, b: 1 - Double(i), a: 1))
            try space.addSublayer(card)
            cards.append(card)
        }
        let square = makeLayer(frame: Rect(x: 160, y: 10, width: 30, height: 30))
        try square.set(LayerProperties.backgroundColor, Color(r: 1, g: 1, b: 0, a: 1))
        try root.addSublayer(square)
        func place(crossing: Bool) throws {
            try cards[0].set(LayerProperties.transform, .rotation(.pi / 6, 0, 1, 0))
            // Apart, the second card stands 100 points behind the first.
            try cards[1].set(LayerProperties.transform,
                             Transform3D.rotation(-.pi / 6, 0, 1, 0).concatenating(.translation(0, 0, crossing ? 0 : -100)))
        }
        func opCount() -> Int {
            var builder = DisplayListBuilder()
            builder.build(root: root)
            return builder.count
        }
        var tracker = DamageTracker()
        try place(crossing: false)
        _ = damage(&tracker, root)
        let apart = opCount()
        try place(crossing: true)
        #expect(opCount() > apart)   // cut into pieces: the test's premise
        let crossed = damage(&tracker, root)
        #expect(crossed.width > 0 && crossed.height > 0)
        #expect(crossed.x + crossed.width <= 160)   // the square is not redrawn
        let same = damage(&tracker, root)
        #expect(same.width == 0 && same.height == 0)
        try place(crossing: false)
        let parted = damage(&tracker, root)
        #expect(parted.width > 0 && parted.x + parted.width <= 160)
    }
}

@Suite struct TypedTrackTests {
    /// The unboxed path and the general Value path give the same values for
    /// every from/to/by combination, additive and cumulative (S4.8).
    @Test func typedAndGeneralPathsAgreeS4_8() throws {
        let combos = pointFromToByCombinations
        for (from, to, by) in combos {
            for (additive, cumulative) in [(false, false), (true, false), (false, true)] {
                let a = Animation(kind: .basic, keyPath: "position")
                (a.fromValue, a.toValue, a.byValue) = (from, to, by)
                a.additive = additive
                a.cumulative = cumulative
                let (property, subpath) = try resolve("position")
                let record = AnimationRecord(key: "k", animation: a, previousValue: .point(Point(x: -3, y: 4)),
                                             runLoop: RunLoop.current, groups: [], property: property, subpath: subpath)
                #expect(record.fastTrack != nil)
                var model = LayerState()
                model.position = Point(x: 100, y: 200)
                var typed = model
                withUnsafeMutablePointer(to: &typed) { s in
                    withUnsafePointer(to: model) { m in
                        record.fastTrack!.apply(a, progress: 0.3, iteration: 2, to: s, model: m)
                    }
                }
                let general = AnimationEvaluator.value(of: record, progress: 0.3, iteration: 2,
                                                       base: .point(model.position), model: { .point(model.position) })
                #expect(general == .point(typed.position), "from \(String(describing: from)) to \(String(describing: to)) by \(String(describing: by)) additive \(additive) cumulative \(cumulative)")
            }
        }
    }
}

@Suite struct TransformTrackTests {
    /// Cached decompositions give what the general path gives (S4.9).
    @Test func transformTrackAgreesWithTheGeneralPathS4_9() throws {
        let r1 = Transform3D.rotation(0.3, 0, 0, 1).concatenating(.translation(5, 6, 0))
        let r2 = Transform3D.rotation(2.5, 0, 0, 1).concatenating(.scale(2, 1, 1))
        let combos: [(Value?, Value?)] = [(.transform(r1), .transform(r2)), (.transform(r1), nil), (nil, .transform(r2)), (nil, nil)]
        for (from, to) in combos {
            let a = Animation(kind: .basic, keyPath: "transform")
            (a.fromValue, a.toValue) = (from, to)
            a.timingFunction = TimingFunction.named(.easeInEaseOut)
            let (property, subpath) = try resolve("transform")
            let record = AnimationRecord(key: "k", animation: a, previousValue: .transform(.rotation(-1, 0, 0, 1)),
                                         runLoop: RunLoop.current, groups: [], property: property, subpath: subpath)
            #expect(record.fastTrack != nil)
            var model = LayerState()
            model.transform = .rotation(1.2, 0, 1, 0)
            for progress in [0.0, 0.25, 0.5, 0.9, 1.0] {
                var typed = model
                withUnsafeMutablePointer(to: &typed) { s in
                    withUnsafePointer(to: model) { m in
                        record.fastTrack!.apply(a, progress: progress, iteration: 0, to: s, model: m)
                    }
                }
                let general = AnimationEvaluator.value(of: record, progress: progress, iteration: 0,
                                                       base: .transform(model.transform), model: { .transform(model.transform) })
                guard case .transform(let g) = general else { Issue.record("no value"); continue }
                #expect(near(g, typed.transform, 1e-12))
            }
        }
    }
}
