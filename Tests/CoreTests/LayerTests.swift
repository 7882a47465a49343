import Glibc
import Testing
@testable import LayerKitCore

@Suite struct LayerModelTests {
    @Test func defaultsS1_1() {
        let s = Layer().state
        #expect(s.bounds == .zero && s.position == .zero && s.anchorPoint == Point(x: 0.5, y: 0.5))
        #expect(s.opacity == 1 && !s.hidden && s.backgroundColor == nil && s.borderColor == .black)
        #expect(s.shadowOffset == Size(width: 0, height: -3) && s.shadowRadius == 3 && s.shadowOpacity == 0)
        #expect(s.contentsRect == .unit && s.contentsCenter == .unit && s.contentsGravity == .resize)
        #expect(s.doubleSided && !s.masksToBounds && s.contentsScale == 1 && s.timing.speed == 1)
    }

    @Test func frameRoundTripsWithIdentityTransformS1_2() throws {
        let l = Layer()
        try l.set(LayerProperties.bounds, Rect(x: 5, y: 7, width: 1, height: 1))
        try l.setFrame(Rect(x: 10, y: 20, width: 100, height: 50))
        #expect(l.frame == Rect(x: 10, y: 20, width: 100, height: 50))
        #expect(l.state.position == Point(x: 60, y: 45))
        #expect(l.state.bounds.origin == Point(x: 5, y: 7)) // bounds.origin kept
        try l.set(LayerProperties.anchorPoint, Point(x: 0, y: 0))
        #expect(l.frame == Rect(x: 60, y: 45, width: 100, height: 50))
    }

    @Test func frameIsTheBoundingBoxAfterTransformS1_2() throws {
        let l = makeLayer(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        try l.set(LayerProperties.transform, .rotation(.pi / 4, 0, 0, 1))
        let half = 50 * 2.0.squareRoot()
        #expect(near(l.frame, Rect(x: 50 - half, y: 50 - half, width: 2 * half, height: 2 * half)))
    }

    @Test func convertThroughBoundsOriginAnchorTransformAndSublayerTransformS1_4() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let parent = makeLayer(frame: Rect(x: 100, y: 100, width: 200, height: 200))
        try parent.set(LayerProperties.bounds, Rect(x: 10, y: 20, width: 200, height: 200))
        let child = makeLayer(frame: Rect(x: 10, y: 20, width: 50, height: 50))
        try root.addSublayer(parent)
        try parent.addSublayer(child)
        // bounds.origin (10,20) shifts the parent's content: child's (0,0) is at parent's top left.
        #expect(near(try Layer.convert(Point.zero, from: child, to: root), Point(x: 100, y: 100)))
        // A sublayerTransform scales about the parent's anchor (its centre, parent (110,120)).
        try parent.set(LayerProperties.sublayerTransform, .scale(2, 2, 1))
        // child (0,0) = parent (10,20); 2x about (110,120) -> parent (-90,-80); parent -> root adds (90,80)
        #expect(near(try Layer.convert(Point.zero, from: child, to: root), Point(x: 0, y: 0)))
        #expect(near(try Layer.convert(Point(x: 0, y: 0), from: root, to: child), Point.zero))
        #expect(near(try Layer.convert(Point(x: 3, y: 4), from: nil, to: root), Point(x: 3, y: 4)))
        let stranger = Layer()
        #expect(throws: LayerKitError.self) { try Layer.convert(Point.zero, from: child, to: stranger) }
    }

    @Test func hitTestingS1_5() throws {
        let root = makeLayer(frame: Rect(x: 0, y: 0, width: 300, height: 300))
        let a = makeLayer(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        let b = makeLayer(frame: Rect(x: 100, y: 100, width: 150, height: 150))
        let inner = makeLayer(frame: Rect(x: 150, y: 150, width: 100, height: 100)) // sticks out of a
        try root.addSublayer(a); try root.addSublayer(b); try a.addSublayer(inner)
        #expect(root.hitTest(Point(x: 150, y: 150)) === b)            // front-most
        #expect(root.hitTest(Point(x: 50, y: 50)) === a)
        #expect(root.hitTest(Point(x: 280, y: 10)) === root)
        #expect(root.hitTest(Point(x: 310, y: 10)) == nil)
        try b.set(LayerProperties.hidden, true)
        #expect(root.hitTest(Point(x: 150, y: 150)) === inner)       // hidden skipped
        #expect(root.hitTest(Point(x: 240, y: 240)) === inner)       // outside a, inside inner
        try a.set(LayerProperties.masksToBounds, true)
        #expect(root.hitTest(Point(x: 240, y: 240)) === root)        // clipped by a
        try a.set(LayerProperties.zPosition, 1)
        try b.set(LayerProperties.hidden, false)
        #expect(root.hitTest(Point(x: 150, y: 150)) === inner)       // zPosition brings a forward
    }

    @Test func hierarchyRulesS1_3() throws {
        let root = Layer(), a = Layer(), b = Layer(), c = Layer()
        try root.addSublayer(a); try root.addSublayer(b)
        try root.insertSublayer(c, below: a)
        #expect(root.sublayers.map(ObjectIdentifier.init) == [c, a, b].map(ObjectIdentifier.init))
        try root.insertSublayer(c, above: b)
        #expect(root.sublayers.map(ObjectIdentifier.init) == [a, b, c].map(ObjectIdentifier.init))
        try root.insertSublayer(c, at: 0)
        #expect(root.sublayers.first === c && root.sublayers.count == 3)
        #expect(throws: LayerKitError.self) { try root.insertSublayer(Layer(), at: 5) }
        // Moving between superlayers.
        try a.addSublayer(c)
        #expect(c.superlayer === a && root.sublayers.count == 2)
        // Cycles are refused and change nothing.
        #expect(throws: LayerKitError.self) { try c.addSublayer(root) }
        #expect(throws: LayerKitError.self) { try a.addSublayer(a) }
        #expect(c.superlayer === a && root.superlayer == nil && a.sublayers.count == 1)
        let d = Layer()
        try root.replaceSublayer(b, with: d)
        #expect(b.superlayer == nil && d.superlayer === root && root.sublayers.last === d)
        try c.removeFromSuperlayer()
        #expect(c.superlayer == nil && a.sublayers.isEmpty)
    }

    @Test func masksFollowTheirRules() throws {
        let root = Layer(), child = Layer(), m = Layer()
        try root.addSublayer(child)
        #expect(throws: LayerKitError.self) { try child.setMask(child) }
        #expect(throws: LayerKitError.self) { try root.setMask(child) }   // has a superlayer
        #expect(throws: LayerKitError.self) { try child.setMask(root) }   // an ancestor
        try child.setMask(m)
        #expect(m.maskOwner === child)
        #expect(throws: LayerKitError.self) { try root.setMask(m) }       // already a mask
        #expect(throws: LayerKitError.self) { try root.addSublayer(m) }   // masks have no superlayer
        try child.setMask(nil)
        #expect(m.maskOwner == nil)
    }

    @Test func validationNamesThePropertyAndChangesNothingS1_6() throws {
        let l = Layer()
        #expect(throws: LayerKitError.invalid("bounds: width and height must not be negative (got the rect (0, 0, -1, 1))")) {
            try l.set(LayerProperties.bounds, Rect(x: 0, y: 0, width: -1, height: 1))
        }
        #expect(throws: LayerKitError.self) { try l.set(LayerProperties.position, Point(x: .nan, y: 0)) }
        #expect(throws: LayerKitError.self) { try l.set(LayerProperties.borderWidth, -1) }
        #expect(throws: LayerKitError.self) { try l.set(LayerProperties.backgroundColor, Color(r: 2, g: 0, b: 0, a: 1)) }
        #expect(throws: LayerKitError.self) { try l.set(LayerProperties.contentsScale, 0) }
        #expect(l.state.bounds == .zero && l.state.position == .zero && l.state.borderWidth == 0)
        try l.set(LayerProperties.opacity, 1.5)
        #expect(l.state.opacity == 1) // clamped like Core Animation
        try l.set(LayerProperties.repeatCount, .infinity)
        #expect(throws: LayerKitError.self) { try l.set(LayerProperties.repeatDuration, 2) } // S4.4
    }

    @Test func setValueToTheSameValueIsNoChangeS3_6() throws {
        let l = Layer()
        let before = l.changeCount
        try l.set(LayerProperties.opacity, 1)
        #expect(l.changeCount == before)
        try l.set(LayerProperties.opacity, 0.5)
        #expect(l.changeCount == before + 1)
    }
}

@Suite struct KeyPathTests {
    @Test func everyPropertyReadsAndWritesByKeyS1_6() throws {
        let l = Layer()
        for property in LayerProperties.all {
            let current = try l.value(forKeyPath: property.key)
            #expect(current.type == property.type || current.type == .none, "\(property.key)")
            if current.type != .none {
                try l.setValue(current, forKeyPath: property.key)
            }
        }
        try l.setValue(.point(Point(x: 3, y: 4)), forKeyPath: "position")
        #expect(try l.value(forKeyPath: "position.y") == .number(4))
        try l.setValue(.number(9), forKeyPath: "position.x")
        #expect(l.state.position == Point(x: 9, y: 4))
        try l.setValue(.number(80), forKeyPath: "bounds.size.width")
        #expect(l.state.bounds.size.width == 80)
        try l.setValue(.string("resizeAspect"), forKeyPath: "contentsGravity")
        #expect(l.state.contentsGravity == .resizeAspect)
        try l.setValue(.string("both"), forKeyPath: "fillMode")
        #expect(try l.value(forKeyPath: "fillMode") == .string("both"))
    }

    @Test func virtualTransformPathsS1_6() throws {
        let l = Layer()
        try l.setValue(.number(2), forKeyPath: "transform.scale")
        try l.setValue(.number(0.5), forKeyPath: "transform.rotation")
        try l.setValue(.size(Size(width: 10, height: 20)), forKeyPath: "transform.translation")
        let expected = Transform3D.scale(2, 2, 2).concatenating(.rotation(0.5, 0, 0, 1)).concatenating(.translation(10, 20, 0))
        #expect(near(l.state.transform, expected, 1e-12))
        guard case .number(let z) = try l.value(forKeyPath: "transform.rotation.z"),
              case .number(let s) = try l.value(forKeyPath: "transform.scale.x"),
              case .number(let ty) = try l.value(forKeyPath: "transform.translation.y") else {
            Issue.record("wrong types"); return
        }
        #expect(near(z, 0.5) && near(s, 2) && near(ty, 20))
        try l.setValue(.number(0.25), forKeyPath: "transform.rotation.x")
        guard case .number(let x) = try l.value(forKeyPath: "transform.rotation.x") else { return }
        #expect(near(x, 0.25, 1e-9))
    }

    @Test func unknownPathsAndWrongTypesAreErrors() {
        let l = Layer()
        #expect(throws: LayerKitError(.unknownKeyPath, "key_path: \"positon\" is not a property of a layer")) {
            try l.setValue(.number(1), forKeyPath: "positon")
        }
        #expect(throws: LayerKitError(.typeMismatch, "opacity: expected a number value, got the point (1, 2)")) {
            try l.setValue(.point(Point(x: 1, y: 2)), forKeyPath: "opacity")
        }
        #expect(throws: LayerKitError.self) { try l.value(forKeyPath: "position.z") }
        #expect(throws: LayerKitError.self) { try l.value(forKeyPath: "transform.rotation.w") }
        #expect(throws: LayerKitError.self) { try l.setValue(.string("sideways"), forKeyPath: "contentsGravity") }
        #expect(l.state.position == .zero && l.state.opacity == 1)
    }
}
