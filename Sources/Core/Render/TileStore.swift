import Synchronization

/// A tiled layer's tiles (S7.8): images keyed by level and grid cell, drawn
/// by the model layer's delegate when a frame needs them and kept, least
/// recently used first out, within the layer's tileCacheLimit. The render
/// side reads and fills it; commits invalidate it (setNeedsDisplay).
final class TileStore: @unchecked Sendable {
    /// A tile: level e (tiles at 2^e times contentsScale pixels per point),
    /// its column and row in that level's grid (anchored at the layer's
    /// coordinate origin), and what it covers: the grid cell cut to the
    /// bounds, at `scale` pixels per point. A layer drawn twice in a frame
    /// with other bounds (replicator instances delayed while the bounds
    /// animate, a transition's picture from before) needs both versions of
    /// a cell: keyed by the cell alone, one replaced the other, and an
    /// instance's tiles were missing every frame.
    struct Key: Hashable {
        var level: Int
        var column: Int
        var row: Int
        var rect: Rect
        var scale: Double
    }

    /// A tile a frame needs and the store lacks.
    struct Need {
        let store: TileStore
        let key: Key
        /// In layer coordinates (the grid cell cut to the bounds).
        let rect: Rect
        /// Pixels per point.
        let scale: Double
        let width: Int, height: Int
        let limit: Int
    }

    private struct Tile {
        var image: Image
        var rect: Rect
        /// Pixels per point it was drawn at.
        var scale: Double
        var lastUse: UInt64
        var bytes: Int { image.width * image.height * 4 }
    }

    private struct Contents {
        var tiles: [Key: Tile] = [:]
        var bytes = 0
        /// Invalidated since the last commit: nil = nothing, [] never, a
        /// list of rects, or everything (`all`).
        var pending: [Rect] = []
        var pendingAll = false
        var draws: UInt64 = 0
        var evictions: UInt64 = 0
    }

    /// The model layer whose delegate draws the tiles.
    weak var owner: Layer?
    private let contents = Locked(Contents())

    /// Frames are numbered by one clock for all stores; a tile used in the
    /// current frame is never evicted by it.
    static let clock = Atomic<UInt64>(1)

    // MARK: Invalidation (model side)

    /// Marks `rect` (nil: all) for redrawing at the next commit.
    func markInvalid(_ rect: Rect?) {
        contents.withLock { c in
            if let rect { c.pending.append(rect) } else { c.pendingAll = true }
        }
    }

    /// The commit's display pass: drops the tiles that meet what was marked.
    func applyInvalidation() {
        contents.withLock { c in
            if c.pendingAll {
                c.tiles.removeAll()
                c.bytes = 0
            } else if !c.pending.isEmpty {
                for (key, tile) in c.tiles where c.pending.contains(where: { $0.overlaps(tile.rect) }) {
                    c.bytes -= tile.bytes
                    c.tiles.removeValue(forKey: key)
                }
            }
            c.pending.removeAll()
            c.pendingAll = false
        }
    }

    // MARK: Frames (render side)

    /// The tile's image if cached for exactly `rect` at `scale` (a change
    /// of bounds, tileSize or contentsScale makes it stale), marked as used now.
    func image(_ key: Key, rect: Rect, scale: Double, frame: UInt64) -> Image? {
        contents.withLock { c in
            guard let tile = c.tiles[key], tile.rect == rect, tile.scale == scale else { return nil }
            c.tiles[key]!.lastUse = frame
            return tile.image
        }
    }

    /// The stores whose tiles a delegate is drawing now (model lock held).
    nonisolated(unsafe) private static var drawing = Set<ObjectIdentifier>()

    /// Draws a needed tile through the owner's delegate (under the model
    /// lock, as delegates are always called) and stores it. Returns false
    /// when nothing could draw it, or `giveUp()` turned true while waiting
    /// for the lock (the display closing: ModelLock.withLock(unless:)).
    static func draw(_ need: Need, frame: UInt64, giveUp: () -> Bool = { false }) -> Bool {
        let drawn: Image? = ModelLock.shared.withLock(unless: giveUp) { () -> Image? in
            // A strong reference: the delegate may release the layer.
            guard let layer = need.store.owner, let draw = layer.delegate?.draw else { return nil }
            // A delegate that snapshots its own tree while drawing a tile (a
            // thumbnail) asks for this layer's tiles again: drawn again, they
            // recursed until the stack overflowed (S8.1). The snapshot shows
            // the tiles drawn before. (Under the model lock: one thread at a time.)
            let store = ObjectIdentifier(need.store)
            guard TileStore.drawing.insert(store).inserted else { return nil }
            defer { TileStore.drawing.remove(store) }
            // (out of memory: the tile stays missing, asked for again next frame)
            guard let canvas = Canvas(width: need.width, height: need.height, scale: need.scale, bounds: need.rect)
            else { return nil }
            draw(layer, canvas)
            return canvas.finish()
        } ?? nil
        guard let image = drawn else { return false }
        need.store.insert(image, for: need.key, rect: need.rect, scale: need.scale, frame: frame, limit: need.limit)
        return true
    }

    private func insert(_ image: Image, for key: Key, rect: Rect, scale: Double, frame: UInt64, limit: Int) {
        contents.withLock { c in
            if let old = c.tiles[key] { c.bytes -= old.bytes }
            let tile = Tile(image: image, rect: rect, scale: scale, lastUse: frame)
            c.tiles[key] = tile
            c.bytes += tile.bytes
            c.draws += 1
            // Least recently used first; what this frame shows stays even
            // when it alone exceeds the limit.
            guard c.bytes > limit else { return }
            let victims = c.tiles.filter { $0.value.lastUse < frame }.sorted { $0.value.lastUse < $1.value.lastUse }
            for (k, t) in victims where c.bytes > limit {
                c.tiles.removeValue(forKey: k)
                c.bytes -= t.bytes
                c.evictions += 1
            }
        }
    }

    /// Tiles held, their bytes, tiles drawn and evicted so far.
    var statistics: (tiles: Int, bytes: Int, draws: UInt64, evictions: UInt64) {
        contents.withLock { ($0.tiles.count, $0.bytes, $0.draws, $0.evictions) }
    }
}

extension Rect {
    /// Whether the two rects share some area (touching edges do not count).
    func overlaps(_ o: Rect) -> Bool {
        minX < o.maxX && o.minX < maxX && minY < o.maxY && o.minY < maxY
    }
}
