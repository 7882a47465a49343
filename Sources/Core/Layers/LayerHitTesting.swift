/// S1.5 hit testing, consistent with what is drawn (S6.1, S6.3): a plain
/// layer flattens its sublayers, so a point is mapped into each sublayer's
/// plane in turn; layers that share a 3D space (a transform layer's
/// sublayers, a preservesDepth replicator's) are each reached by
/// unprojecting the point onto its plane through its whole 3D map, and the
/// nearest one at that point wins. A single-sided layer turned away from
/// the viewer is culled when drawn, so it is not hit either.
extension Layer {
    /// S1.5: the deepest, front-most layer containing `p` (in this layer's
    /// superlayer coordinates), skipping hidden layers and honouring
    /// masksToBounds. Whether the superlayer's plane is seen from behind
    /// comes from the ancestors' maps (flattened, as S1.4 converts).
    public func hitTest(_ p: Point) -> Layer? {
        let flipped = superlayer.map { Homography($0.transformToRootSpace).determinant < 0 }
            ?? presentedPlacement.map { Homography($0.superlayerToRoot).determinant < 0 } ?? false
        return hitTest(p, flipped: flipped)
    }

    /// `flipped`: whether the superlayer's plane is seen from behind (its
    /// map to the root's space reverses orientation).
    private func hitTest(_ p: Point, flipped: Bool) -> Layer? {
        guard !state.hidden else { return nil }
        if state.layerKind == .transform {
            // It has no plane of its own (and draws nothing): only its
            // sublayers are hit, in its superlayer's 3D space.
            var nearest: SpaceHit?
            var order = 0
            Layer.hitTestSpace(sublayers, sublayerTransform: state.sublayerTransformAboutAnchor, space: mapToSpace,
                               p, flipped: flipped, nearest: &nearest, order: &order)
            return nearest?.layer
        }
        let toSuperlayer = Homography(transformToSuperlayer)
        guard let local = toSuperlayer.inverted?.map(p, inverse: true), toSuperlayer.map(local) != nil else {
            return nil
        }
        let flips = flipped != (toSuperlayer.determinant < 0)
        if flips && !state.doubleSided { return nil }
        let inside = state.bounds.contains(local)
        if state.masksToBounds && !inside { return nil }
        if state.layerKind == .replicator && state.replicator.preservesDepth {
            // Instance 0's sublayers, in the superlayer's 3D space.
            var nearest: SpaceHit?
            var order = 0
            Layer.hitTestSpace(sublayers, sublayerTransform: state.sublayerTransformAboutAnchor, space: mapToSpace,
                               p, flipped: flipped, nearest: &nearest, order: &order)
            if let hit = nearest?.layer { return hit }
        } else if let hit = hitTestSublayers(local, flipped: flips) {
            return hit
        }
        return inside ? self : nil
    }

    /// The sublayers, front to back, with `local` in this layer's coordinates.
    private func hitTestSublayers(_ local: Point, flipped: Bool) -> Layer? {
        for sublayer in sublayersInDrawingOrder.reversed() {
            if let hit = sublayer.hitTest(local, flipped: flipped) { return hit }
        }
        return nil
    }

    /// This layer's unflattened map into its superlayer's plane, through
    /// the superlayer's sublayerTransform (and so its perspective).
    private var mapToSpace: Transform3D {
        var m = state.transformToSuperlayerPlane
        if let st = superlayer?.state.sublayerTransformAboutAnchor ?? presentedPlacement?.sublayerTransform {
            m = m.concatenating(st)
        }
        return m
    }

    /// A layer hit in a 3D space: z / w of its plane at the point (larger
    /// is nearer) and its place in drawing order (later wins a tie, as it
    /// is drawn over).
    private struct SpaceHit {
        let layer: Layer
        let depth: Double
        let order: Int
    }

    /// Hit tests the layers of one 3D space: `space` maps the parent's
    /// coordinates into the space's plane (unflattened), `p` is in that
    /// plane. Transform layers and preservesDepth replicators add their
    /// sublayers to the same space (a replicator only its first instance:
    /// the other instances are not layers). Every other layer is hit as a
    /// flat layer, with its sublayers, at the point unprojected onto it.
    private static func hitTestSpace(_ children: [Layer], sublayerTransform: Transform3D?, space: Transform3D,
                                     _ p: Point, flipped: Bool, nearest: inout SpaceHit?, order: inout Int) {
        for child in children {
            let s = child.state
            guard !s.hidden else { continue }
            var m = s.transformToSuperlayerPlane
            if let st = sublayerTransform { m = m.concatenating(st) }
            m = m.concatenating(space)
            if s.layerKind == .transform {
                hitTestSpace(child.sublayers, sublayerTransform: s.sublayerTransformAboutAnchor, space: m, p,
                             flipped: flipped, nearest: &nearest, order: &order)
                continue
            }
            let plane = Homography(m.flattened)
            guard let local = plane.inverted?.map(p, inverse: true), plane.map(local) != nil else { continue }
            let flips = flipped != (plane.determinant < 0)
            if flips && !s.doubleSided { continue }
            let w = local.x * m.m14 + local.y * m.m24 + m.m44
            let depth = (local.x * m.m13 + local.y * m.m23 + m.m43) / w
            order += 1
            let place = order
            let inside = s.bounds.contains(local)
            if s.masksToBounds && !inside { continue }
            var hit: Layer?
            if s.layerKind == .replicator && s.replicator.preservesDepth {
                hitTestSpace(child.sublayers, sublayerTransform: s.sublayerTransformAboutAnchor, space: m, p,
                             flipped: flipped, nearest: &nearest, order: &order)
                hit = inside ? child : nil
            } else {
                hit = child.hitTestSublayers(local, flipped: flips) ?? (inside ? child : nil)
            }
            if let hit, nearest.map({ ($0.depth, $0.order) <= (depth, place) }) ?? true {
                nearest = SpaceHit(layer: hit, depth: depth, order: place)
            }
        }
    }
}
