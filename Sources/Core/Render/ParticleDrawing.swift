import CLayerKit
import Glibc

/// S7.4: an emitter layer's live particles as IMAGE ops.
extension DisplayListBuilder {
    /// S7.4: the live particles, above the layer's background, contents and
    /// border and below its sublayers, in the render mode's order. Each is its
    /// cell's contents (contentsRect) centred on the particle, scaled and
    /// turned about its centre, multiplied by its colour (a TINT); additive
    /// mode adds. Without preservesDepth particles lie in the layer's plane;
    /// with it each keeps its z and is placed in the superlayer's 3D space
    /// (its perspective included), back to front by depth there in the
    /// backToFront mode.
    mutating func drawParticles(_ layer: LayerDraw, opacity: Double) {
        guard let render = layer.node.emitter, !truncated else { return }
        let e = layer.state.pointee.emitter
        // With animations on the layer, their emitter values at any moment
        // (sampled between frames for the births there, EmitterRender).
        let node = layer.node
        let presented: ((Double) -> EmitterState)? = node.animations.isEmpty ? nil : { time in
            RenderTree.presentedState(node, localTime: time).emitter
        }
        guard let simulation = render.simulation(for: e, at: layer.time, presented: presented) else { return }
        let config = e.configuration
        let depth = config.preservesDepth ? layer.depth : nil
        var particles = simulation.particles(at: layer.time)
        guard spend(particles.count) else { return }
        if let depth {
            particles = DisplayListBuilder.inDepth(particles, depth.map, sorted: config.renderMode == .backToFront)
        }
        noteRunning(!particles.isEmpty || (config.birthRate > 0 && e.cells.contains { $0.attributes.enabled }))
        var flags = LK_DL_FLAG_ANTIALIAS.rawValue
        if config.renderMode == .additive { flags |= LK_DL_FLAG_BLEND_ADD.rawValue }
        let first = beginVariableRun()
        defer { endVariableRun(from: first) }
        // The cell's image is looked up when the cell changes, and held
        // unretained per particle: the simulation holds it, and `images`
        // (the list's) from its first op on. A retain and release per
        // particle went to the image's side table (it has weak
        // references): about 270 instructions a particle.
        var image: Unmanaged<Image>?   // the cell's contents
        var appended: Unmanaged<Image>?   // the last image added to `images`
        var lastCell: Int32 = -1
        var source = Rect.zero
        var pointsPerPixel = 1.0   // 1 / the cell's contentsScale
        var filters = (magnification: ContentsFilter.linear, minification: ContentsFilter.linear)
        for p in particles where !truncated {
            if p.cell != lastCell {
                guard let contents = simulation.contents(ofCell: p.cell) else { continue }
                let cr = simulation.contentsRect(ofCell: p.cell)
                let w = Double(contents.width), h = Double(contents.height)
                source = Rect(x: cr.origin.x * w, y: cr.origin.y * h, width: cr.size.width * w, height: cr.size.height * h)
                pointsPerPixel = 1 / simulation.contentsScale(ofCell: p.cell)
                filters = simulation.filters(ofCell: p.cell)
                if appended?.toOpaque() != Unmanaged.passUnretained(contents).toOpaque() {
                    images.append(contents)
                    appended = Unmanaged.passUnretained(contents)
                }
                image = Unmanaged.passUnretained(contents)
                lastCell = p.cell
            }
            guard let image else { continue }
            let w = abs(source.size.width) * p.scale * pointsPerPixel, h = abs(source.size.height) * p.scale * pointsPerPixel
            guard w > 0, h > 0, p.color.a > 0 else { continue }
            let c = cos(p.rotation), sn = sin(p.rotation)
            var m = Transform3D.identity
            m.m11 = c; m.m12 = sn; m.m21 = -sn; m.m22 = c
            m.m41 = p.x; m.m42 = p.y
            if depth != nil { m.m43 = p.z }
            let white = p.color.r == 1 && p.color.g == 1 && p.color.b == 1 && p.color.a == 1
            let world = depth.map { $0.world(m) } ?? m.concatenating(layer.world)
            let rect = Rect(x: -w / 2, y: -h / 2, width: w, height: h)
            let sampling = DisplayListBuilder.contentsSampling(world, destination: rect, source: source,
                                                               magnification: filters.magnification,
                                                               minification: filters.minification)
            image._withUnsafeGuaranteedRef { contents in
                append(.image, world, rect, opacity: opacity, image: contents, source: source, flags: flags | sampling,
                       tint: white ? nil : p.color)
            }
        }
    }
}
