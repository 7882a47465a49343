/// A shadowPath's fill coverage (S6.1) as the render side keeps it, with
/// what it was made from: the path, the layer's bounds (which cut a huge
/// path) and the raster scale. Reused while all three are equal, so an
/// unchanged, moved or faded layer never re-rasterizes its shadow; an
/// animated shadowPath does, each frame, with the presented path.
final class ShadowCoverage {
    let path: PathData
    let bounds: Rect
    let scale: Double
    let output: ContentRasterizer.Output?

    private init(path: PathData, bounds: Rect, scale: Double, output: ContentRasterizer.Output?) {
        self.path = path
        self.bounds = bounds
        self.scale = scale
        self.output = output
    }

    /// The coverage of `path` at `scale`: the cached one if still valid,
    /// else a new rasterization (counted in `rasterizations`).
    static func coverage(of path: PathData, bounds: Rect, scale: Double, cache: inout ShadowCoverage?,
                         rasterizations: inout UInt64) -> ContentRasterizer.Output? {
        // PathData's == sees a shared element buffer at once: the common
        // case, the same committed path frame after frame.
        if let cache, cache.scale == scale, cache.bounds == bounds, cache.path == path { return cache.output }
        rasterizations &+= 1
        let output = ContentRasterizer.coverage(of: path, bounds: bounds, scale: scale)
        cache = ShadowCoverage(path: path, bounds: bounds, scale: scale, output: output)
        return output
    }
}
