/// A layer's rasterized content on the render side, with everything it was
/// made from: the kind's properties (presentation values when animated),
/// bounds and contentsScale. Reused while all of them are equal.
final class ContentCache {
    let key: any KindState
    let bounds: Rect
    let scale: Double
    let output: ContentRasterizer.Output?

    init(key: any KindState, bounds: Rect, scale: Double, output: ContentRasterizer.Output?) {
        self.key = key
        self.bounds = bounds
        self.scale = scale
        self.output = output
    }

    func matches(_ state: UnsafePointer<LayerState>, scale: Double) -> Bool {
        guard let kind = state.pointee.kindValue else { return false }
        return bounds == state.pointee.bounds && self.scale == scale && kind.isEqual(to: key)
    }

    /// The content for `state`: the cached one if still valid, else a new
    /// rasterization (counted in `rasterizations`).
    static func content(for state: UnsafePointer<LayerState>, scale: Double, cache: inout ContentCache?,
                        rasterizations: inout UInt64) -> ContentRasterizer.Output? {
        if let cache, cache.matches(state, scale: scale) { return cache.output }
        guard let kind = state.pointee.kindValue else { return nil }
        rasterizations &+= 1
        let output = ContentRasterizer.rasterize(state, scale: scale)
        cache = ContentCache(key: kind, bounds: state.pointee.bounds, scale: scale, output: output)
        return output
    }
}
