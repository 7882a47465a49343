/// Custom drawing: the delegate's draw into a canvas, cached as the
/// layer's contents until the layer is marked for display again.
extension Layer {
    /// lk_layer_set_needs_display: drawn before the next commit.
    public func setNeedsDisplay() throws(LayerKitError) {
        try checkWritable()
        tileStore?.markInvalid(nil)
        needsDisplay = true
        changed()
    }

    public func displayIfNeeded() throws(LayerKitError) {
        try checkWritable()
        if needsDisplay { display() }
    }

    /// Draws now: a canvas over the bounds at contentsScale, cleared, given
    /// to the delegate's draw; its pixels become the contents (as
    /// CALayer.display sets contents), with no implicit animation.
    func display() {
        needsDisplay = false
        // A tiled layer draws on demand, tile by tile (S7.8): here it only
        // drops the tiles that were marked.
        if let store = tileStore { store.applyInvalidation(); return }
        guard let draw = delegate?.draw else { return }
        let b = state.bounds, scale = state.contentsScale
        // (compared as doubles first: bounds near 1e300 are finite but no Int)
        let w = (b.size.width * scale).rounded(.up), h = (b.size.height * scale).rounded(.up)
        guard w > 0, h > 0, w <= 16384, h <= 16384 else { return }
        let width = Int(w), height = Int(h)
        // (out of memory: drawn at the next display instead)
        guard let canvas = Canvas(width: width, height: height, scale: scale, bounds: b) else { return }
        draw(self, canvas)
        guard let image = canvas.finish() else { return }
        state.contents = image
        changed()
    }
}
