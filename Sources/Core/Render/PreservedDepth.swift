/// preservesDepth (S7.4, S7.5): a replicator's instances, or an emitter's
/// particles, keep their depth instead of being flattened into the layer's
/// plane. They are placed by their whole 3D map into the plane of the
/// layer's superlayer (through its sublayerTransform, so its perspective
/// applies) and drawn back to front by depth there, as a transform layer's
/// sublayers are (TransformLayerSpace.swift).
extension DisplayListBuilder {
    /// S7.5 with preservesDepth: every sublayer of every instance joins one
    /// 3D space (CAReplicatorLayer "acts similarly to CATransformLayer"),
    /// instance n through instanceTransform^n, sorted by the depth of each
    /// one's centre; equal depths keep instance order, then sublayer order.
    /// The replicator's own background, contents and border are drawn in
    /// its plane as usual, before and after the instances.
    mutating func drawInstancesInDepth(_ layer: LayerDraw, _ depth: DepthSpace, opacity: Double, clip: ScreenBox) {
        let s = layer.state
        let r = s.pointee.replicator
        let step = DisplayListBuilder.instanceStep(s)
        let sublayerTransform = s.pointee.sublayerTransformAboutAnchor
        var items: [SpaceItem] = []
        var next = Double.infinity
        let clock = SpaceClock(frozen: timeFrozen, rate: timeRate, frameTime: frameTime)
        var power = Transform3D.identity
        for n in 0..<r.drawnInstanceCount {
            if items.count >= DisplayListBuilder.maximumSpaceItems { break }
            let c = r.color(ofInstance: n)
            if c.a > 0 {
                DisplayListBuilder.gather(layer.node.children, sublayerTransform: sublayerTransform,
                                          space: n == 0 ? depth.map : power.concatenating(depth.map), base: depth.base,
                                          opacity: opacity, time: layer.time - Double(n) * r.instanceDelay,
                                          events: n == 0 ? layer.events : nil,
                                          tint: DisplayListBuilder.multiply(instanceTint, c), into: &items,
                                          next: &next, clock: clock)
            }
            power = step.concatenating(power)
        }
        noteFrame(at: next)
        let gathered = items.count
        drawSpace(&items, base: depth.base, clip: clip, events: layer.events)
        noteSpaceLimit(gathered)   // (after: a truncated build visits nothing more)
    }

    /// S7.4 with preservesDepth: the particles that are in front of the
    /// viewer under `map` (the emitter layer's 3D map into its superlayer's
    /// plane); with `sorted`, back to front by the depth of their centres
    /// there (backToFront: "sorted into Z order"), equal depths in the
    /// simulation's order.
    static func inDepth(_ particles: [ParticleState], _ map: Transform3D, sorted: Bool) -> [ParticleState] {
        var kept: [(depth: Double, particle: ParticleState)] = []
        kept.reserveCapacity(particles.count)
        for p in particles {
            let w = p.x * map.m14 + p.y * map.m24 + p.z * map.m34 + map.m44
            guard w > 1e-9 else { continue }
            kept.append(((p.x * map.m13 + p.y * map.m23 + p.z * map.m33 + map.m43) / w, p))
        }
        if sorted {
            // Stable: the index breaks ties.
            return kept.enumerated().sorted { ($0.element.depth, $0.offset) < ($1.element.depth, $1.offset) }
                .map(\.element.particle)
        }
        return kept.map(\.particle)
    }
}
