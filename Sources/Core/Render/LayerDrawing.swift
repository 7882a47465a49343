import CLayerKit
import CSupport

/// One layer's own drawing (S6.1): its shadow, background, contents, what
/// its kind draws, its sublayers (clipped when masksToBounds) and its
/// border, as one faded group where its opacity must apply to the whole.
extension DisplayListBuilder {
    /// One layer being drawn, with what its sublayers need.
    struct LayerDraw {
        let node: RenderNode
        let state: UnsafeMutablePointer<LayerState>
        let world: Transform3D
        let time: Double
        let events: UnsafeMutablePointer<[AnimationEvaluator.Event]>?
        /// The output box its ancestors leave visible.
        let clip: ScreenBox
        /// Where it lies in 3D, for a layer that keeps depth (preservesDepth).
        var depth: DepthSpace? = nil
    }

    /// The layer at `opacity`: as one group when it fades as a whole
    /// (allowsGroupOpacity) and has parts that overlap (sublayers, an
    /// emitter's particles, or two of background, contents and border);
    /// otherwise the opacity multiplies
    /// each op, and a plain layer stays on the backends' fast paths.
    mutating func drawFaded(_ layer: LayerDraw, opacity: Double) {
        let s = layer.state
        if opacity < 1 && s.pointee.opacity < 1 && s.pointee.allowsGroupOpacity && DisplayListBuilder.hasOverlappingParts(layer) {
            beginGroup(opacity: opacity)
            drawLayer(layer, opacity: 1)
            endGroup()
        } else {
            drawLayer(layer, opacity: opacity)
        }
    }

    static func hasOverlappingParts(_ layer: LayerDraw) -> Bool {
        if !layer.node.children.isEmpty { return true }
        let s = layer.state
        // Particles overlap one another: each faded on its own, an opaque
        // particle showed the one beneath it (as a background colour
        // made the layer a group, they were grouped only with one).
        if s.pointee.layerKind == .emitter { return true }
        var parts = 0
        if let c = s.pointee.backgroundColor, c.a > 0 { parts += 1 }
        if s.pointee.contents != nil { parts += 1 }
        if s.pointee.kindStorage != nil { parts += 1 }
        if s.pointee.borderWidth > 0 && s.pointee.borderColor.a > 0 { parts += 1 }
        return parts > 1
    }

    /// S6.1's shadow goes first. With a shadowPath it is that path's: a
    /// rect, rounded rect or ellipse as one FILL, any other path as its
    /// rasterized coverage (one IMAGE under the layer's map, so the shadow
    /// turns and scales with the layer); an empty path casts none. Without
    /// one it is the layer's own composited alpha (background, contents,
    /// sublayers, border), so the layer draws as one group casting it.
    /// masksToBounds clips the layer's shadow too, as in Core Animation.
    /// With allowsGroupOpacity off the shadow is still cast by the whole
    /// layer (its colour times the opacity), but the layer itself is drawn
    /// with the opacity on each op, not as one faded group.
    mutating func drawWithShadow(_ layer: LayerDraw, _ shadow: ShadowSpec, opacity: Double) {
        let s = layer.state
        let bounds = s.pointee.bounds, radius = s.pointee.cornerRadius
        let masks = s.pointee.masksToBounds
        if let path = s.pointee.shadowPath {
            if let shape = ShadowShape(path.data) {
                if masks { append(.pushClip, layer.world, bounds, radius: radius) }
                beginGroup(opacity: 1, flags: LK_DL_FLAG_SHADOW_ONLY.rawValue, shadow: shadow)
                append(.fill, shape.local.concatenating(layer.world), shape.rect, radius: shape.radius,
                       color: Color(r: 1, g: 1, b: 1, a: 1))
                endGroup()
                if masks { append(.popClip, layer.world, bounds) }
            } else if let coverage = ShadowCoverage.coverage(
                of: path.data, bounds: bounds, scale: DisplayListBuilder.rasterScale(s, world: layer.world, path: path.data),
                cache: &layer.node.shadowCoverage, rasterizations: &rasterizations) {
                images.append(coverage.image)
                if masks { append(.pushClip, layer.world, bounds, radius: radius) }
                beginGroup(opacity: 1, flags: LK_DL_FLAG_SHADOW_ONLY.rawValue, shadow: shadow)
                append(.image, layer.world, coverage.rect, image: coverage.image,
                       source: Rect(x: 0, y: 0, width: Double(coverage.image.width), height: Double(coverage.image.height)))
                endGroup()
                if masks { append(.popClip, layer.world, bounds) }
            }
            drawFaded(layer, opacity: opacity)
        } else if !masks && (s.pointee.allowsGroupOpacity || opacity >= 1) {
            beginGroup(opacity: opacity, shadow: shadow)
            drawLayer(layer, opacity: 1)
            endGroup()
        } else {
            if masks { append(.pushClip, layer.world, bounds, radius: radius) }
            beginGroup(opacity: 1, flags: LK_DL_FLAG_SHADOW_ONLY.rawValue, shadow: shadow)
            drawLayer(layer, opacity: 1)
            endGroup()
            if masks { append(.popClip, layer.world, bounds) }
            drawFaded(layer, opacity: opacity)
        }
    }

    /// The scale a shadowPath is rasterized at: the layer's contentsScale,
    /// or more where the world map enlarges the layer, so the coverage has
    /// at least one pixel per output pixel. The enlargement (the map's
    /// longest stretch of a unit vector) is rounded up to a power of two, so
    /// a scale animation re-rasterizes a few times, not every frame; a path
    /// that would then exceed the largest content image keeps contentsScale.
    static func rasterScale(_ s: UnsafeMutablePointer<LayerState>, world w: Transform3D, path: PathData) -> Double {
        rasterScale(base: s.pointee.contentsScale, world: w) { path.bounds.insetBy(-1) }
    }

    /// The same for content covering `box()` (layer coordinates; nil: it
    /// draws nothing) whose contentsScale is `base`: the enlargement's power
    /// of two, halved while the box would exceed the largest content image,
    /// never below `base`. The box is asked for only when the layer is
    /// enlarged (it walks the path: every frame of every shape layer did).
    static func rasterScale(base: Double, world w: Transform3D, box: () -> Rect?) -> Double {
        let w44 = abs(w.m44) > 1e-9 ? abs(w.m44) : 1
        let stretch = max((w.m11 * w.m11 + w.m12 * w.m12).squareRoot(), (w.m21 * w.m21 + w.m22 * w.m22).squareRoot()) / w44
        guard stretch.isFinite, stretch > base, let box = box() else { return base }
        var scale = 1.0
        while scale < stretch && scale < 64 { scale *= 2 }
        let side = max(box.size.width, box.size.height)
        while scale > base && side * scale > ContentRasterizer.maximumSide { scale /= 2 }
        return max(scale, base)
    }

    /// The scale a layer's rasterized content is drawn at: a shape's is
    /// rasterScale's, as Core Animation maps a shape into screen space
    /// before rasterizing it (a shape scaled up 4 times was an image of
    /// its points magnified, its edges 4 pixels soft); text and gradients
    /// keep their contentsScale (CATextLayer's text is an image at it).
    static func contentScale(_ s: UnsafeMutablePointer<LayerState>, world: Transform3D) -> Double {
        guard s.pointee.layerKind == .shape else { return s.pointee.contentsScale }
        return rasterScale(base: s.pointee.contentsScale, world: world) { ContentRasterizer.shapeExtent(s.pointee.shape)?.box }
    }

    /// Background, contents, sublayers (clipped when masksToBounds), border;
    /// an emitter layer's border goes below its particles (and so below its
    /// sublayers, which are above the particles).
    mutating func drawLayer(_ layer: LayerDraw, opacity: Double) {
        let s = layer.state, world = layer.world
        let bounds = s.pointee.bounds
        let radius = s.pointee.cornerRadius
        let masks = s.pointee.masksToBounds
        let borderWidth = s.pointee.borderWidth, borderColor = s.pointee.borderColor
        let hasBorder = borderWidth > 0 && borderColor.a > 0

        if let color = s.pointee.backgroundColor, color.a > 0 {
            append(.fill, world, bounds, radius: radius, color: color, opacity: opacity)
        }
        if masks {
            append(.pushClip, world, bounds, radius: radius)
        }
        if let image = s.pointee.contents {
            appendContents(image, of: s, world: world, opacity: opacity)
        }
        let kind = s.pointee.layerKind
        if kind == .gradient && s.pointee.gradient.type != .conic {
            // Drawn by the backend from its stops: nothing to rasterize or
            // upload when the colours or the size change (S7.3). A conic
            // gradient is rasterized instead (below): its seam, where
            // location 1 meets 0, is anti-aliased there, and the ABI's conic
            // op draws it hard.
            appendGradient(s.pointee.gradient, world: world, bounds: bounds, radius: radius, opacity: opacity)
        } else if kind == .emitter {
            // CAEmitterLayer: particles "are drawn above the layer's
            // background color and border". The border stays outside the
            // masksToBounds clip, as every layer's.
            if hasBorder {
                if masks { append(.popClip, world, bounds) }
                append(.border, world, bounds, radius: radius, borderWidth: borderWidth, color: borderColor, opacity: opacity)
                if masks { append(.pushClip, world, bounds, radius: radius) }
            }
            drawParticles(layer, opacity: opacity)
        } else if kind == .tiled {
            appendTiles(of: s, world: world, clip: layer.clip, opacity: opacity)
        } else if kind.rasterizes,
           let content = ContentCache.content(for: s, scale: DisplayListBuilder.contentScale(s, world: world),
                                              cache: &layer.node.content, rasterizations: &rasterizations) {
            // A special layer's drawing (S7.1-S7.3) over its contents.
            images.append(content.image)
            append(.image, world, content.rect, opacity: opacity, image: content.image,
                   source: Rect(x: 0, y: 0, width: Double(content.image.width), height: Double(content.image.height)))
        }
        let children = layer.node === contentOnly ? [] : layer.node.children
        if !children.isEmpty {
            let clip = masks ? layer.clip.intersection(ScreenBox(world, bounds)) : layer.clip
            if kind == .replicator {
                drawInstances(layer, opacity: opacity, clip: clip)
            } else {
                let placement = Placement(world: world, sublayerTransform: s.pointee.sublayerTransformAboutAnchor, isRoot: false,
                                          clip: clip)
                let order = DisplayListBuilder.drawingOrder(children, parentTime: layer.time)
                for k in order.indices {
                    // Siblings ahead are asked for while this one is drawn,
                    // each step reading what the step before brought in: the
                    // node three ahead, its state and tracks two ahead, the
                    // objects its tracks point to (whole transforms) next.
                    if k + 3 < order.count {
                        layerkit_support_prefetch(Unmanaged.passUnretained(order[k + 3]).toOpaque(), 192)
                    }
                    if k + 2 < order.count { order[k + 2].prefetch() }
                    if k + 1 < order.count { order[k + 1].prefetchTrackObjects() }
                    visit(order[k], parent: placement, parentOpacity: opacity, parentTime: layer.time,
                          events: layer.events)
                }
            }
        }
        if masks {
            append(.popClip, world, bounds)
        }
        if hasBorder && kind != .emitter {
            append(.border, world, bounds, radius: radius, borderWidth: borderWidth, color: borderColor, opacity: opacity)
        }
    }

    mutating func appendContents(_ image: Image, of s: UnsafeMutablePointer<LayerState>, world: Transform3D,
                                 opacity: Double) {
        guard let placement = ContentsPlacement.place(imageWidth: image.width, imageHeight: image.height,
                                                      in: s.pointee.bounds, contentsRect: s.pointee.contentsRect,
                                                      gravity: s.pointee.contentsGravity,
                                                      scale: s.pointee.contentsScale) else { return }
        images.append(image)
        let sampling = DisplayListBuilder.contentsSampling(world, destination: placement.destination,
                                                           source: placement.source,
                                                           magnification: s.pointee.magnificationFilter,
                                                           minification: s.pointee.minificationFilter)
        guard let slices = NineSlice.slices(destination: placement.destination, source: placement.source,
                                            center: s.pointee.contentsCenter, scale: s.pointee.contentsScale) else {
            append(.image, world, placement.destination, opacity: opacity, image: image, source: placement.source,
                   flags: LK_DL_FLAG_ANTIALIAS.rawValue | sampling)
            return
        }
        // Slices meet edge to edge: drawn without anti-aliasing (pixel-centre
        // sampling) they neither overlap nor leave seams. Unless the outline
        // lands on whole pixels, an anti-aliased clip gives it smooth edges.
        let d = placement.destination
        let clip = !DisplayListBuilder.landsOnPixels(world, d)
        if clip { append(.pushClip, world, d) }
        for slice in slices {
            append(.image, world, slice.destination, opacity: opacity, image: image, source: slice.source,
                   flags: sampling)
        }
        if clip { append(.popClip, world, d) }
    }

    /// magnificationFilter and minificationFilter (Apple: "the filter used
    /// when increasing / reducing the size of the content"): the nearest
    /// flag where the filter for this draw is "nearest". The contents are
    /// reduced when more than one of `source`'s pixels falls on an output
    /// pixel along either side of `destination` (measured at its centre, so
    /// under perspective too), as GL picks its minification filter.
    static func contentsSampling(_ t: Transform3D, destination d: Rect, source: Rect,
                                 magnification: ContentsFilter, minification: ContentsFilter) -> UInt32 {
        guard magnification == .nearest || minification == .nearest else { return 0 }
        let cx = d.minX + d.size.width / 2, cy = d.minY + d.size.height / 2
        let w = cx * t.m14 + cy * t.m24 + t.m44
        guard abs(w) > 1e-12 else { return 0 }
        let x = cx * t.m11 + cy * t.m21 + t.m41, y = cx * t.m12 + cy * t.m22 + t.m42
        // the map's derivatives along the layer's x and y at the centre
        let ww = w * w
        let alongX = ((t.m11 * w - x * t.m14) / ww, (t.m12 * w - y * t.m14) / ww)
        let alongY = ((t.m21 * w - x * t.m24) / ww, (t.m22 * w - y * t.m24) / ww)
        let width = (alongX.0 * alongX.0 + alongX.1 * alongX.1).squareRoot() * abs(d.size.width)
        let height = (alongY.0 * alongY.0 + alongY.1 * alongY.1).squareRoot() * abs(d.size.height)
        guard width > 0, height > 0 else { return 0 }
        let texelsPerPixel = max(abs(source.size.width) / width, abs(source.size.height) / height)
        let filter = texelsPerPixel > 1 ? minification : magnification
        return filter == .nearest ? LK_DL_FLAG_FILTER_NEAREST.rawValue : 0
    }

    /// Whether `rect` under `t` is an axis-aligned rect with whole-pixel edges.
    static func landsOnPixels(_ t: Transform3D, _ rect: Rect) -> Bool {
        guard t.m12 == 0, t.m21 == 0, t.m14 == 0, t.m24 == 0, t.m44 == 1 else { return false }
        func whole(_ v: Double) -> Bool { abs(v - v.rounded()) < 1e-9 }
        return whole(rect.minX * t.m11 + t.m41) && whole(rect.maxX * t.m11 + t.m41)
            && whole(rect.minY * t.m22 + t.m42) && whole(rect.maxY * t.m22 + t.m42)
    }
}
