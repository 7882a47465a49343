import Glibc

/// S7.8: what a tiled layer draws in a frame. The part of its bounds left
/// visible by the output and the ancestors' masksToBounds is found by
/// mapping that output box back into the layer's plane; the level of
/// detail follows the layer's scale on the output; the tiles meeting the
/// visible part are drawn from the layer's TileStore, and the ones it lacks
/// are noted (tileNeeds) for the display to draw and build again.
extension DisplayListBuilder {
    /// At most this many tiles per layer per frame, however the layer is
    /// placed (a layer seen edge-on under perspective, or with no output):
    /// cells of the grid walked each time the layer is drawn (cells that
    /// come to nothing count too), and missing tiles noted for drawing in
    /// the frame over all the times it is drawn (replicator instances).
    /// (Tiles far smaller than a point, at a contentsScale near the largest
    /// doubles, give a grid of 2^52 rows or columns; with the indices of
    /// one side rounded to the same number, its rows were walked with no
    /// cell in them.)
    static let maximumTilesPerFrame = 1024

    mutating func appendTiles(of s: UnsafeMutablePointer<LayerState>, world: Transform3D, clip: ScreenBox,
                              opacity: Double) {
        let tiled = s.pointee.tiled
        let bounds = s.pointee.bounds, contentsScale = s.pointee.contentsScale
        guard bounds.size.width > 0, bounds.size.height > 0,
              let visible = DisplayListBuilder.visiblePart(of: bounds, world: world, clip: clip) else { return }
        let level = TilePlan.level(stretch: DisplayListBuilder.stretch(world), contentsScale: contentsScale, tiled: tiled,
                                   size: bounds.size)
        let scale = contentsScale * pow(2, Double(level))
        let tw = tiled.tileSize.width / scale, th = tiled.tileSize.height / scale
        guard tw > 0, th > 0 else { return }   // no tiles to draw
        let c0 = whole((visible.minX / tw).rounded(.down)), c1 = whole((visible.maxX / tw).rounded(.up))
        let r0 = whole((visible.minY / th).rounded(.down)), r1 = whole((visible.maxY / th).rounded(.up))
        let limit = whole(tiled.tileCacheLimit)
        guard c1 > c0, r1 > r0 else { return }
        var n = 0
        for row in r0..<r1 {
            for column in c0..<c1 {
                guard n < DisplayListBuilder.maximumTilesPerFrame else { return }
                n += 1
                let cell = Rect(x: Double(column) * tw, y: Double(row) * th, width: tw, height: th)
                guard let rect = cell.intersection(bounds), rect.size.width > 0, rect.size.height > 0 else { continue }
                let key = TileStore.Key(level: level, column: column, row: row, rect: rect, scale: scale)
                if let image = tiled.store.image(key, rect: rect, scale: scale, frame: tileFrame) {
                    images.append(image)
                    // Tiles meet edge to edge: no anti-aliasing, so no seams.
                    append(.image, world, rect, opacity: opacity, image: image,
                           source: Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)), flags: 0)
                } else if needs(key, of: tiled.store) {
                    let width = max(1, whole((rect.size.width * scale).rounded(.up)))
                    let height = max(1, whole((rect.size.height * scale).rounded(.up)))
                    tileNeeds.append(TileStore.Need(store: tiled.store, key: key, rect: rect, scale: scale,
                                                    width: width, height: height, limit: limit))
                }
            }
        }
    }

    /// Whether a tile the store lacks is to be drawn for this frame: once,
    /// however many times the layer is drawn (a tiled layer in a
    /// replicator is drawn once per instance: 1000 instances drew each
    /// tile 1000 times), and no more than maximumTilesPerFrame for one
    /// layer, whatever its instances show (the rest come in later frames).
    private mutating func needs(_ key: TileStore.Key, of store: TileStore) -> Bool {
        let id = ObjectIdentifier(store)
        if let keys = tilesNeeded[id] {
            guard keys.count < DisplayListBuilder.maximumTilesPerFrame, !keys.contains(key) else { return false }
        }
        tilesNeeded[id, default: []].insert(key)
        return true
    }

    /// v as an Int, within 2^52 either way (NaN: 0): tile indices, sizes and
    /// limits beyond that mean nothing (a layer with bounds near 1e300, or
    /// an unlimited tile cache), and the conversion must not trap.
    private func whole(_ v: Double) -> Int {
        v.isNaN ? 0 : Int(min(max(v, -0x1p52), 0x1p52))
    }

    /// The bounding box, in layer coordinates, of the part of `bounds` that
    /// lands inside `clip`; nil when none does. Where the clip cannot be
    /// mapped back (no output box, or part of it beyond the horizon) the
    /// whole bounds count as visible.
    static func visiblePart(of bounds: Rect, world: Transform3D, clip: ScreenBox) -> Rect? {
        let onScreen = ScreenBox(world, bounds)
        let box = clip.intersection(onScreen)
        if box.isEmpty { return nil }
        guard box.x0.isFinite, box.y0.isFinite, box.x1.isFinite, box.y1.isFinite else { return bounds }
        let forward = Homography(world)
        guard let inverse = forward.inverted else { return nil }
        var points: [Point] = []
        for (x, y) in [(box.x0, box.y0), (box.x1, box.y0), (box.x1, box.y1), (box.x0, box.y1)] {
            guard let q = inverse.map(Point(x: x, y: y), inverse: true), forward.map(q) != nil else { return bounds }
            points.append(q)
        }
        return Rect.bounding(points).intersection(bounds)
    }

    /// How many output pixels a point of the layer covers, at most (the
    /// longest stretch of the map's linear part).
    static func stretch(_ w: Transform3D) -> Double {
        let w44 = abs(w.m44) > 1e-9 ? abs(w.m44) : 1
        return max((w.m11 * w.m11 + w.m12 * w.m12).squareRoot(), (w.m21 * w.m21 + w.m22 * w.m22).squareRoot()) / w44
    }
}

/// The level of detail (S7.8): levels are scales 2^e of contentsScale, e
/// from levelsOfDetailBias - levelsOfDetail + 1 up to levelsOfDetailBias
/// (so 1, 1/2, 1/4 ... with no bias; 2x and 4x added by a bias of 2). A
/// frame uses the smallest level at least as fine as the output needs.
/// The coarsest level still has a pixel each way for a layer of `size`
/// (CATiledLayer.levelsOfDetail: "the bottom most level of detail must
/// contain at least a single pixel in each dimension"): more levels than
/// that are not used.
enum TilePlan {
    static func level(stretch: Double, contentsScale: Double, tiled: TiledState, size: Size) -> Int {
        let highest = Int(tiled.levelsOfDetailBias)
        var lowest = highest - Int(tiled.levelsOfDetail) + 1
        let side = min(size.width, size.height) * contentsScale
        if side >= 1 && side.isFinite { lowest = max(lowest, min(highest, -Int(log2(side).rounded(.down)))) }
        let wanted = stretch / contentsScale
        let e = wanted > 0 && wanted.isFinite ? Int((log2(wanted) - 1e-9).rounded(.up)) : 0
        return min(max(e, lowest), highest)
    }
}
