import CLayerKit

/// renderInContext: a layer subtree drawn into an image. The core draws no
/// pixels itself: it builds the subtree's display list and has the
/// software backend render it offscreen, so a snapshot looks exactly as the
/// layers do on a display.
extension Layer {
    /// The model tree under this layer (no animations), its bounds at the
    /// image's top left, `scale` pixels per point (0: contentsScale); the
    /// layer's own position and transform are left out.
    public func renderToImage(scale requested: Double) throws(LayerKitError) -> Image {
        guard requested.isFinite, requested >= 0 else { throw .invalid("scale: must be finite and not negative (got \(requested))") }
        let scale = requested == 0 ? state.contentsScale : requested
        let b = state.bounds
        let w = (b.size.width * scale).rounded(.up), h = (b.size.height * scale).rounded(.up)
        guard w > 0, h > 0 else {
            throw .invalid("layer: its bounds (\(b.size.width) x \(b.size.height)) at scale \(scale) have no pixels")
        }
        guard w <= 16384, h <= 16384 else {
            throw .invalid("layer: \(w) x \(h) pixels is more than a snapshot can have (16384 a side)")
        }
        let width = Int(w), height = Int(h)
        // Model layers marked for display draw first, as a commit would:
        // every one of the subtree (only the layer itself did, so a
        // sublayer drawn by its delegate came out blank or stale).
        displayMarkedSubtree()
        let root = RenderNode.snapshot(of: self)
        root.state.transform = .scale(scale, scale, 1)
        root.state.position = Point(x: state.anchorPoint.x * b.size.width * scale,
                                    y: state.anchorPoint.y * b.size.height * scale)
        root.state.hidden = false
        var options = DisplayOptions()
        options.backend = "software"
        options.width = width
        options.height = height
        options.manualClock = true
        let backend = try Backend(plugin: try PluginLoader.load("software"), options: options)
        defer { backend.close() }
        var builder = DisplayListBuilder()
        builder.viewport = ScreenBox(x0: 0, y0: 0, x1: Double(width), y1: Double(height))
        builder.build(root: root, at: 0, events: nil)
        if !builder.tileNeeds.isEmpty {
            // A tiled layer's missing tiles (S7.8), then the list again.
            for need in builder.tileNeeds { _ = TileStore.draw(need, frame: builder.tileFrame) }
            builder.build(root: root, at: 0, events: nil)
        }
        var list = lk_display_list(
            abi_version: LK_BACKEND_ABI_VERSION,
            struct_size: UInt32(MemoryLayout<lk_display_list>.size),
            op_size: UInt32(MemoryLayout<lk_dl_op>.size),
            op_count: UInt32(builder.count),
            ops: builder.opsPointer,
            clear_color: lk_dl_color(r: 0, g: 0, b: 0, a: 0),
            damage: lk_dl_box(x: 0, y: 0, width: Int32(width), height: Int32(height)),
            target_time: 0,
            frame_number: 1)
        try backend.render(&list)
        let pixels = try PixelStorage.allocate(words: width * height, for: "layer")
        do {
            try backend.readPixels(into: pixels, stride: width * 4)
        } catch {
            PixelStorage.free(pixels)
            throw error
        }
        return Image(width: width, height: height, adopting: pixels)
    }

    /// Draws every layer of this subtree (sublayers and masks) that is
    /// marked for display, front to back of the walk: a stack, not
    /// recursion, so a deep tree cannot overflow the thread's stack.
    private func displayMarkedSubtree() {
        var pending: [Layer] = [self]
        while let layer = pending.popLast() {
            if layer.needsDisplay { layer.display() }
            if let mask = layer.state.mask { pending.append(mask) }
            pending.append(contentsOf: layer.sublayers.reversed())
        }
    }
}
