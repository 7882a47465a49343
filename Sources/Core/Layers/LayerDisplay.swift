/// Custom drawing: the delegate's draw into a canvas, cached as the
/// layer's contents until the layer is marked for display again.
extension Layer {
    /// How deep draw callbacks may nest displays on one thread (each level
    /// holds its canvas, the layer's size in pixels).
    static let maxDisplayNesting = 16

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
        // A draw that displays layers whose draw displays again (its own
        // layer, marked again) recursed until the stack overflowed: past
        // this depth the layer stays marked, for the next commit.
        let transaction = Transaction.current
        guard transaction.displayNesting < Layer.maxDisplayNesting else {
            needsDisplay = true
            writeToStandardError("layerkit: warning: display nested more than \(Layer.maxDisplayNesting) deep: a draw callback keeps displaying layers (lk_layer_display_if_needed) whose draw displays again; the layer stays marked and draws at the next commit\n")
            return
        }
        guard let canvas = Canvas(width: width, height: height, scale: scale, bounds: b) else { return }
        transaction.displayNesting += 1
        draw(self, canvas)
        transaction.displayNesting -= 1
        guard let image = canvas.finish() else { return }
        state.contents = image
        changed()
    }
}
