/// S6.3, S7.6: a transform layer's sublayers share one 3D space. Every
/// layer reached from it through transform layers is placed by its whole,
/// unflattened 3D map into the plane of the transform layer's superlayer,
/// then all of them are drawn back to front by the depth of their centres
/// (painter's algorithm, as Core Animation sorts). Each such layer still
/// flattens its own sublayers into its plane. The transform layers
/// themselves draw nothing but their sublayers.
extension DisplayListBuilder {
    /// One layer of a shared 3D space, ready to draw.
    struct SpaceItem {
        let node: RenderNode
        /// Its map to the output (flattened only at the end).
        let world: Transform3D
        /// Its unflattened map into the space's plane.
        let map: Transform3D
        /// z / w of its centre in the superlayer's space: larger is nearer.
        let depth: Double
        let order: Int
        let parentOpacity: Double
        let parentTime: Double
        /// The replicator instance colour it is drawn with (S7.5), nil for none.
        let tint: Color?
        /// Whether its animations' start and stop are noted (not for
        /// replicator instances after the first: they are not layers).
        let notesEvents: Bool
    }

    mutating func drawTransformSpace(_ node: RenderNode, _ s: UnsafeMutablePointer<LayerState>, parent: Placement,
                                     opacity: Double, time: Double,
                                     events: UnsafeMutablePointer<[AnimationEvaluator.Event]>?) {
        var space = s.pointee.transformToSuperlayerPlane
        if !parent.isRoot, let st = parent.sublayerTransform { space = space.concatenating(st) }
        let base = parent.isRoot ? Transform3D.identity : parent.world
        var items: [SpaceItem] = []
        var running = false
        DisplayListBuilder.gather(node.children, sublayerTransform: s.pointee.sublayerTransformAboutAnchor, space: space,
                                  base: base, opacity: opacity, time: time, events: events, tint: instanceTint,
                                  into: &items, running: &running)
        if running { animating = true }
        drawSpace(&items, base: base, clip: parent.clip, events: events)
    }

    /// Draws the layers of one space back to front (equal depths in the
    /// order gathered).
    mutating func drawSpace(_ items: inout [SpaceItem], base: Transform3D, clip: ScreenBox,
                            events: UnsafeMutablePointer<[AnimationEvaluator.Event]>?) {
        items.sort { ($0.depth, $0.order) < ($1.depth, $1.order) }
        let outerTint = instanceTint
        for item in items {
            let placement = Placement(world: base, sublayerTransform: nil, isRoot: false, clip: clip,
                                      fixedWorld: item.world, fixedDepth: DepthSpace(map: item.map, base: base))
            instanceTint = item.tint
            visit(item.node, parent: placement, parentOpacity: item.parentOpacity, parentTime: item.parentTime,
                  events: item.notesEvents ? events : nil)
        }
        instanceTint = outerTint
    }

    /// Collects the layers of one 3D space: `space` maps the parent's
    /// coordinates into the superlayer's (unflattened); nested transform
    /// layers add their sublayers to the same space. `running` is set when
    /// an animation of a layer placed here runs (the layers drawn note
    /// their own when visited; the transform layers here are not visited).
    static func gather(_ children: [RenderNode], sublayerTransform: Transform3D?, space: Transform3D,
                       base: Transform3D, opacity: Double, time: Double,
                       events: UnsafeMutablePointer<[AnimationEvaluator.Event]>?, tint: Color?,
                       into items: inout [SpaceItem], running: inout Bool) {
        for child in children {
            let local = TimingModel.localTime(time, child.state.timing)
            var presented = child.state
            let isSpace = child.state.layerKind == .transform
            if !child.animations.isEmpty {
                // A transform layer is not visited, so its events are noted
                // here; any other layer's are noted when it is drawn.
                let runs = withUnsafeMutablePointer(to: &presented) { p in
                    AnimationEvaluator.apply(child.animations, to: p, layerTime: local, model: child.statePointer,
                                             events: isSpace ? events : nil)
                }
                if runs { running = true }
            }
            guard !presented.hidden, presented.opacity > 0 else { continue }
            var m = presented.transformToSuperlayerPlane
            if let st = sublayerTransform { m = m.concatenating(st) }
            m = m.concatenating(space)
            if isSpace {
                gather(child.children, sublayerTransform: presented.sublayerTransformAboutAnchor, space: m, base: base,
                       opacity: opacity * presented.opacity, time: local, events: events, tint: tint, into: &items,
                       running: &running)
                continue
            }
            let b = presented.bounds
            let cx = b.origin.x + b.size.width / 2, cy = b.origin.y + b.size.height / 2
            let z = cx * m.m13 + cy * m.m23 + m.m43
            let w = cx * m.m14 + cy * m.m24 + m.m44
            let depth = w > 1e-12 ? z / w : -Double.infinity
            items.append(SpaceItem(node: child, world: m.flattened.concatenating(base), map: m, depth: depth,
                                   order: items.count, parentOpacity: opacity, parentTime: time, tint: tint,
                                   notesEvents: events != nil))
        }
    }
}
