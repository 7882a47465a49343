/// Where a layer lands in its superlayer and in its tree (S1.2, S1.4, S1.5).
extension LayerState {
    /// The anchor point in the layer's own (bounds) coordinates.
    var anchorInBounds: Point {
        Point(x: bounds.origin.x + anchorPoint.x * bounds.size.width,
              y: bounds.origin.y + anchorPoint.y * bounds.size.height)
    }

    /// Layer coordinates to superlayer coordinates, before the superlayer's
    /// sublayerTransform: move the anchor to the origin, apply `transform`,
    /// then move the origin to `position` (and zPosition).
    var transformToSuperlayerPlane: Transform3D {
        let a = anchorInBounds
        if transform.isIdentity {
            return .translation(position.x - a.x, position.y - a.y, zPosition - anchorPointZ)
        }
        return transform.preTranslated(-a.x, -a.y, -anchorPointZ).thenTranslating(position.x, position.y, zPosition)
    }

    /// S1.2: the bounding box, in superlayer coordinates, of bounds after
    /// anchorPoint, position and transform.
    var frame: Rect {
        let b = bounds
        if transform.isIdentity {
            let a = anchorInBounds
            return Rect(x: position.x - a.x + b.origin.x, y: position.y - a.y + b.origin.y,
                        width: b.size.width, height: b.size.height)
        }
        let m = transformToSuperlayerPlane.flattened
        let corners = [Point(x: b.minX, y: b.minY), Point(x: b.maxX, y: b.minY),
                       Point(x: b.maxX, y: b.maxY), Point(x: b.minX, y: b.maxY)]
        let projected = corners.compactMap { m.project($0) }
        guard projected.count == 4 else { return .zero }
        return Rect.bounding(projected)
    }

    /// Layer coordinates to superlayer coordinates, through the superlayer's
    /// sublayerTransform (about its anchor), flattened into its plane (S6.3).
    func transformToSuperlayer(through sublayerTransform: Transform3D?) -> Transform3D {
        if sublayerTransform == nil && !transform.isIdentity {
            // transformToSuperlayerPlane, flattened, worked in one matrix.
            let a = anchorInBounds
            var m = transform
            m.place(preTranslation: (-a.x, -a.y, -anchorPointZ), translation: (position.x, position.y, zPosition),
                    flatten: true)
            return m
        }
        var m = transformToSuperlayerPlane
        if let s = sublayerTransform { m = m.concatenating(s) }
        return m.flattened
    }

    /// The superlayer's sublayerTransform, applied about its anchor point.
    var sublayerTransformAboutAnchor: Transform3D? {
        guard !sublayerTransform.isIdentity else { return nil }
        let a = anchorInBounds
        return Transform3D.translation(-a.x, -a.y, 0).concatenating(sublayerTransform).thenTranslating(a.x, a.y, 0)
    }
}

extension Layer {
    /// Layer coordinates to superlayer coordinates, including the superlayer's
    /// sublayerTransform, flattened into the superlayer's plane (S6.3). A
    /// mask is placed in its owner's coordinates.
    public var transformToSuperlayer: Transform3D {
        state.transformToSuperlayer(through: superlayer?.state.sublayerTransformAboutAnchor
                                        ?? presentedPlacement?.sublayerTransform)
    }

    /// Layer coordinates to the space its tree's root is placed in (a display's pixels).
    public var transformToRootSpace: Transform3D {
        var m = transformToSuperlayer
        var top: Layer = self
        while let up = top.parentInTree {
            m = m.concatenating(up.transformToSuperlayer)
            top = up
        }
        // a presentation copy's top: where its model's ancestors put it
        if let placement = top.presentedPlacement { m = m.concatenating(placement.superlayerToRoot) }
        return m
    }

    /// S1.2: the bounding box, in superlayer coordinates, of bounds after
    /// anchorPoint, position and transform.
    public var frame: Rect { state.frame }

    /// Setting frame sets position and bounds.size (bounds.origin is kept) so
    /// that the frame reads back equal (S1.2): with an identity transform,
    /// and, as Core Animation does, under a flat transform whose box of the
    /// bounds a size can be found for (scales, turns by multiples of 90
    /// degrees, skews that keep the box solvable). Under other transforms
    /// (a turn of 45 degrees, perspective: Apple leaves them undefined) the
    /// frame's size becomes the bounds' size, the frame's anchor point the
    /// position.
    public func setFrame(_ r: Rect) throws(LayerKitError) {
        guard r.isFinite else { throw .invalid("frame: \(describe(r.value)) is not finite") }
        guard r.size.width >= 0, r.size.height >= 0 else {
            throw .invalid("frame: width and height must not be negative (got \(describe(r.value)))")
        }
        var bounds = state.bounds
        let ap = state.anchorPoint, t = state.transform
        var position = Point(x: r.origin.x + ap.x * r.size.width, y: r.origin.y + ap.y * r.size.height)
        bounds.size = r.size
        if !t.isIdentity, t.m14 == 0, t.m24 == 0, t.m34 == 0, t.m44 == 1 {
            // The box of a w x h rect turned by the flat part: |m11| w +
            // |m21| h wide, |m12| w + |m22| h high. Solved for w and h.
            let a = abs(t.m11), c = abs(t.m21), b = abs(t.m12), d = abs(t.m22)
            let det = a * d - c * b
            let scale = max(a * d, c * b)
            if scale > 0, abs(det) > 1e-9 * scale {
                let w = (r.size.width * d - c * r.size.height) / det
                let h = (a * r.size.height - b * r.size.width) / det
                let slack = 1e-9 * max(r.size.width, r.size.height, 1)
                if w >= -slack, h >= -slack, w.isFinite, h.isFinite {
                    let size = Size(width: max(w, 0), height: max(h, 0))
                    // The corners about the anchor point, turned; the box's
                    // least corner is the frame's origin.
                    var lo = Point(x: Double.infinity, y: Double.infinity)
                    for (u, v) in [(0.0, 0.0), (size.width, 0), (0, size.height), (size.width, size.height)] {
                        let dx = u - ap.x * size.width, dy = v - ap.y * size.height
                        lo.x = min(lo.x, dx * t.m11 + dy * t.m21)
                        lo.y = min(lo.y, dx * t.m12 + dy * t.m22)
                    }
                    let z = -state.anchorPointZ
                    bounds.size = size
                    position = Point(x: r.origin.x - (z * t.m31 + t.m41) - lo.x,
                                     y: r.origin.y - (z * t.m32 + t.m42) - lo.y)
                }
            }
        }
        // Both checked before either is set: a position that overflows
        // (an origin near the largest double plus the anchor's share of the
        // width) left the new bounds set and blamed position.
        guard position.x.isFinite, position.y.isFinite else {
            throw .invalid("frame: \(describe(r.value)) puts the position beyond the largest double")
        }
        try set(LayerProperties.bounds, bounds)
        try set(LayerProperties.position, position)
    }

    /// True when both layers are in one tree.
    public func sharesTree(with other: Layer) -> Bool { rootLayer === other.rootLayer }

    /// The layer above this one: its superlayer, or the layer it is the mask of.
    var parentInTree: Layer? { superlayer ?? maskOwner }

    /// The nearest layer that is (or is above) both; nil in different trees.
    static func commonAncestor(_ a: Layer, _ b: Layer) -> Layer? {
        func depth(_ l: Layer) -> Int {
            var n = 0, node = l
            while let up = node.parentInTree { n += 1; node = up }
            return n
        }
        var x = a, y = b, dx = depth(a), dy = depth(b)
        while dx > dy, let up = x.parentInTree { x = up; dx -= 1 }
        while dy > dx, let up = y.parentInTree { y = up; dy -= 1 }
        while x !== y {
            guard let ux = x.parentInTree, let uy = y.parentInTree else { return nil }
            x = ux
            y = uy
        }
        return x
    }

    /// Layer coordinates to `ancestor`'s (this layer itself or one above it);
    /// nil: the space the tree's root is placed in (transformToRootSpace).
    func transform(toAncestor ancestor: Layer?) -> Transform3D {
        guard let ancestor else { return transformToRootSpace }
        var m = Transform3D.identity
        var node: Layer = self
        while node !== ancestor, let up = node.parentInTree {
            m = m.concatenating(node.transformToSuperlayer)
            node = up
        }
        return m
    }

    /// S1.4: converts a point of `from`'s coordinates into `to`'s. nil stands
    /// for the space the tree's root is placed in.
    public static func convert(_ p: Point, from: Layer?, to: Layer?) throws(LayerKitError) -> Point {
        // (NaN or infinite, it has no place to go: said as it is, not as a
        // point behind the viewer)
        guard p.isFinite else { throw .invalid("p: \(describe(p.value)) is not finite") }
        return try Conversion(from: from, to: to).map(p, named: "p")
    }

    /// The map from one layer's coordinates to another's (S1.4), worked
    /// out once (the common ancestor, both layers' transforms to it and the
    /// inverse of one) and applied to as many points as a call converts.
    private struct Conversion {
        let toSpace: Homography
        let fromSpace: Homography
        /// fromSpace is an inverse (there is a `to` layer): only w = 0 is refused.
        let inverse: Bool

        init(from: Layer?, to: Layer?) throws(LayerKitError) {
            if let from, let to, !from.sharesTree(with: to) {
                throw LayerKitError(.hierarchy, "from, to: the layers are in different trees")
            }
            // Through the layers' nearest common ancestor, not the root's space:
            // only the transforms on the way between them count (S1.4), so a
            // container above both scaled to nothing (a shrink animation) does
            // not make the two layers unconvertible.
            let space: Layer? = if let from, let to { commonAncestor(from, to) } else { nil }
            toSpace = from.map { Homography($0.transform(toAncestor: space)) } ?? .identity
            fromSpace = try to.map { (layer) throws(LayerKitError) -> Homography in
                guard let inverse = Homography(layer.transform(toAncestor: space)).inverted else {
                    throw LayerKitError(.state, space == nil
                        ? "to: the layer's transform is singular (it has no area on screen)"
                        : "to: its transform, or an ancestor's below its common ancestor with from, is singular (no area to convert into)")
                }
                return inverse
            } ?? .identity
            inverse = to != nil
        }

        /// p mapped; errors name the C argument p came in (`name`).
        func map(_ p: Point, named name: String) throws(LayerKitError) -> Point {
            // (a point so far out that its coordinates overflow on the way is
            // no point behind the viewer: said as it is)
            func finite(_ q: Point) throws(LayerKitError) -> Point {
                guard q.x.isFinite && q.y.isFinite else {
                    throw LayerKitError(.invalidArgument, "\(name): (\(p.x), \(p.y)) overflows converting it (too far from the layers)")
                }
                return q
            }
            guard let inSpace = try toSpace.map(p).map(finite), let result = fromSpace.map(inSpace, inverse: inverse) else {
                throw LayerKitError(.state, "\(name): the point is behind the viewer after perspective")
            }
            return try finite(result)
        }
    }

    /// S1.4: converts a rect; the result is the bounding box of the converted corners.
    public static func convert(_ r: Rect, from: Layer?, to: Layer?) throws(LayerKitError) -> Rect {
        // (a NaN size gave the rect of its origin, no error)
        guard r.isFinite else { throw .invalid("r: \(describe(r.value)) is not finite") }
        let corners = [Point(x: r.minX, y: r.minY), Point(x: r.maxX, y: r.minY),
                       Point(x: r.maxX, y: r.maxY), Point(x: r.minX, y: r.maxY)]
        guard corners.allSatisfy(\.isFinite) else {
            throw .invalid("r: \(describe(r.value)) overflows converting it (its far corner is beyond the largest double)")
        }
        let conversion = try Conversion(from: from, to: to)
        var out: [Point] = []
        for c in corners { out.append(try conversion.map(c, named: "r")) }
        return Rect.bounding(out)
    }

    /// CALayer.containsPoint: the point, in the layer's coordinates, is inside bounds.
    public func contains(_ p: Point) -> Bool { state.bounds.contains(p) }

    /// Sublayers back to front (S1.3).
    public var sublayersInDrawingOrder: [Layer] { drawingOrder(sublayers) { $0.state.zPosition } }
}

/// Back to front: in order, then by zPosition, a stable sort (S1.3). The
/// common case, every zPosition 0, returns the array itself.
func drawingOrder<Node>(_ nodes: [Node], zPosition: (Node) -> Double) -> [Node] {
    guard nodes.contains(where: { zPosition($0) != 0 }) else { return nodes }
    return nodes.enumerated().sorted { (zPosition($0.element), $0.offset) < (zPosition($1.element), $1.offset) }
        .map(\.element)
}

/// The 3x3 projective map a flattened 4x4 transform applies to the z = 0 plane.
struct Homography {
    var m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

    static let identity = Homography(m: (1, 0, 0, 0, 1, 0, 0, 0, 1))

    init(m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)) { self.m = m }

    /// Rows x, y, w and columns x, y, w of the row-vector 4x4.
    init(_ t: Transform3D) {
        m = (t.m11, t.m12, t.m14, t.m21, t.m22, t.m24, t.m41, t.m42, t.m44)
    }

    /// Maps p; nil where it has no image. Points behind the viewer (w <= 0)
    /// have none under a forward map; the scale of an inverse is arbitrary,
    /// so there only w = 0 is refused and the caller checks the forward map.
    func map(_ p: Point, inverse: Bool = false) -> Point? {
        let w = p.x * m.2 + p.y * m.5 + m.8
        guard abs(w) > 1e-12, inverse || w > 0 else { return nil }
        return Point(x: (p.x * m.0 + p.y * m.3 + m.6) / w, y: (p.x * m.1 + p.y * m.4 + m.7) / w)
    }

    var determinant: Double {
        let (a, b, c, d, e, f, g, h, i) = m
        return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    }

    var inverted: Homography? {
        let (a, b, c, d, e, f, g, h, i) = m
        let A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g
        let det = a * A + b * B + c * C
        guard det != 0, det.isFinite else { return nil }
        let k = 1 / det
        return Homography(m: (A * k, -(b * i - c * h) * k, (b * f - c * e) * k,
                              B * k, (a * i - c * g) * k, -(a * f - c * d) * k,
                              C * k, -(a * h - b * g) * k, (a * e - b * d) * k))
    }
}
