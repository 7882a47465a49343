/// S7.5: a replicator layer's sublayers drawn once per instance, without
/// copying a layer (PreservedDepth.swift: the same with preservesDepth).
extension DisplayListBuilder {
    /// S7.5: the sublayers drawn instanceCount times, instance n through
    /// instanceTransform^n about the centre of the layer's bounds (see
    /// instanceStep), multiplied by its colour, its sublayers' time
    /// n x instanceDelay behind. No layer is copied: the same nodes are
    /// visited again. The sublayers' animation events are noted once a
    /// frame, at their own time (instance 0's): with instance 0 when it is
    /// drawn, else as for layers not drawn (as noteUndrawn does), even when
    /// later instances are drawn.
    mutating func drawInstances(_ layer: LayerDraw, opacity: Double, clip: ScreenBox) {
        let s = layer.state
        let r = s.pointee.replicator
        let count = r.drawnInstanceCount
        // S4.6, S2.4: the sublayers are layers once, whatever is drawn of them.
        if !r.drawsInstanceZero, let events = layer.events {
            noteChange(DisplayListBuilder.noteEvents(ofSublayers: layer.node, time: layer.time, events: events),
                       layerTime: layer.time)
        }
        guard count > 0 else { return }
        if r.preservesDepth, let depth = layer.depth {
            drawInstancesInDepth(layer, depth, opacity: opacity, clip: clip)
            return
        }
        let step = DisplayListBuilder.instanceStep(s)
        let outerTint = instanceTint
        let sublayerTransform = s.pointee.sublayerTransformAboutAnchor
        var power = Transform3D.identity
        for n in 0..<count {
            if truncated { break }   // (the list is full: nothing more is drawn)
            let c = r.color(ofInstance: n)
            guard c.a > 0 else {
                power = step.concatenating(power)
                continue
            }
            instanceTint = DisplayListBuilder.multiply(outerTint, c)
            let placement = Placement(world: n == 0 ? layer.world : power.concatenating(layer.world),
                                      sublayerTransform: sublayerTransform, isRoot: false, clip: clip)
            let time = layer.time - Double(n) * r.instanceDelay
            for child in DisplayListBuilder.drawingOrder(layer.node.children, parentTime: time) {
                visit(child, parent: placement, parentOpacity: opacity, parentTime: time,
                      events: n == 0 ? layer.events : nil)
            }
            power = step.concatenating(power)
        }
        instanceTint = outerTint
    }

    /// instanceTransform about the centre of the replicator's bounds: one
    /// instance to the next. CAReplicatorLayer: "The matrix is applied
    /// relative to the center of this layer" (not its anchor point, which
    /// differs from the centre only when set away from (0.5, 0.5)).
    static func instanceStep(_ s: UnsafeMutablePointer<LayerState>) -> Transform3D {
        let t = s.pointee.replicator.instanceTransform
        guard !t.isIdentity else { return .identity }
        let b = s.pointee.bounds
        let cx = b.origin.x + b.size.width / 2, cy = b.origin.y + b.size.height / 2
        return Transform3D.translation(-cx, -cy, 0).concatenating(t).thenTranslating(cx, cy, 0)
    }

    /// Two multiplying colours; nil (white) when there is nothing to multiply.
    static func multiply(_ a: Color?, _ b: Color?) -> Color? {
        guard let b, !(b.r == 1 && b.g == 1 && b.b == 1 && b.a == 1) else { return a }
        guard let a else { return b }
        return Color(r: a.r * b.r, g: a.g * b.g, b: a.b * b.b, a: a.a * b.a)
    }
}
