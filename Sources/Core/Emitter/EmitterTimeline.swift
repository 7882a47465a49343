/// One cell of one timeline segment, flattened: its attributes with the
/// segment's multipliers applied where Core Animation applies them.
struct CellParams {
    var attributes: EmitterCellAttributes
    var contents: Image?
    var name: String?
    /// Identifies the cell across segments: its index path, hashed.
    var pathKey: UInt64
    var depth: Int
    /// Indices into the simulation's params table (same segment), in order.
    var children: [Int32]
    /// Longest possible life of one particle: (lifetime + |range| / 2) * multiplier.
    var maxLifetime: Double
}

/// The plain numbers a particle's evolution reads from its cell, apart from
/// the references of `CellParams`, so the per-frame loop touches no
/// reference counts.
struct CellMotion {
    var ax: Double, ay: Double, az: Double
    var scaleSpeed: Double
    var redSpeed: Double, greenSpeed: Double, blueSpeed: Double, alphaSpeed: Double
    var hasChildren: Bool
}

/// The emitter's configuration and cells from one instant on: a change
/// committed at time T starts a new segment, so particles born before T
/// keep what they were born with and births after T follow the new values
/// (CAEmitterLayer: changes "only affect newly created particles").
struct TimelineSegment {
    var start: Double
    var configuration: EmitterConfiguration
    /// Params of the top-level cells, in order.
    var roots: [Int32]
    /// Params index by path key.
    var byPath: [UInt64: Int32]
    /// Where this segment's params begin in the table.
    var firstParams: Int32
}

/// A stretch of time over which no cell's birth rate changes: one piece of
/// every birth schedule. A change of anything else (position, velocity,
/// colour ...) starts a segment but no run, so it never moves a birth.
struct RateRun {
    var start: Double
    /// Births per second by cell path (the cell's birthRate times the
    /// layer's birthRate; absent when 0 or the cell is disabled).
    var rates: [UInt64: Double]
}

/// Path keys: a root cell i, or child j of a cell.
enum CellPath {
    static let root: UInt64 = 0x6C6B_656D_6974_7465 // "lkemitte"
    static func key(_ parent: UInt64, _ index: Int) -> UInt64 { ParticleRandom.key(parent, UInt64(index)) }
}

/// The timing window of a cell's emission, from its timing properties
/// (S4.1, CAMediaTiming on CAEmitterCell) relative to its emitter's start:
/// births happen while the cell's local time (S4.2) is within its active
/// interval; `speed` speeds up the birth clock and `timeOffset` starts it
/// part-way (a negative one holds the first birth back until the local
/// time reaches 0). A duration of 0 (the default) means the cell emits for as long
/// as its emitter lives. autoreverses doubles the active interval; fillMode
/// has no effect on emission (nothing is "held").
///
/// A negative beginTime puts the cell's local time |beginTime| in at its
/// emitter's start: a top-level cell then has the particles it would have
/// born since `begin`, with the rates and values in effect at `start`,
/// whether it was there when the simulation started or added later; a
/// sub-cell's particles are born only once their parent is (the walk's
/// callers start at the parent's birth).
struct EmissionWindow {
    /// When the emitter started this cell: the simulation's start or the
    /// change that added it (top-level), the parent particle's birth.
    var start: Double
    var begin: Double
    var end: Double
    var speed: Double
    var timeOffset: Double

    init(emitterStart: Double, emitterEnd: Double, timing t: TimingState) {
        start = emitterStart
        begin = emitterStart + t.beginTime
        speed = t.speed
        timeOffset = t.timeOffset
        var active = Double.infinity
        if t.repeatDuration > 0 {
            active = t.repeatDuration
        } else if t.duration > 0 {
            active = t.duration * (t.autoreverses ? 2 : 1) * (t.repeatCount > 0 ? t.repeatCount : 1)
        }
        // A cell whose clock stands still or runs backwards emits nothing.
        end = speed > 0 ? min(emitterEnd, begin + active / speed) : begin
    }

    /// Where the cell's birth schedule starts reading rate runs: the run at
    /// its begin, or at its start when it begins before it.
    var firstRunTime: Double { max(begin, start) }
}

/// Births as exact times: the k-th particle of a cell from one emitter is
/// born when the accumulated birth count (the integral of the cell's birth
/// rate times the layer's birthRate multiplier over the timeline's
/// segments, from the window's start) reaches k. Core Animation emits the
/// same way: a cell with birthRate 1 in a particle of lifetime 1.02 emits
/// once, at 1 s (the fireworks burst). Every birth time is computed by the
/// same arithmetic from the same segments whatever the query, so any
/// sequence of frames sees the same births.
extension EmitterSimulation {
    /// Calls `body(k, time)` for each birth with a < time <= b (and time
    /// before the window's end) of the cell `pathKey`, until it returns
    /// false. Birth numbers stop at 2^53, where k + 1 would equal k (a
    /// birth rate near 1e300 reaches it at once).
    @inline(__always)
    func forEachBirth(pathKey: UInt64, window: EmissionWindow, after a: Double, through b: Double,
                      _ body: (Int, Double) -> Bool) {
        guard window.speed > 0, window.begin < window.end, b > window.begin else { return }
        let last = 0x1p53
        var walk = ScheduleWalk(self, pathKey: pathKey, window: window)
        while let piece = walk.next(), piece.start <= b {
            let (n, rate) = (piece.count, piece.rate)
            guard rate > 0, piece.end > piece.start else { continue }
            // The window's first piece counts births strictly after it
            // starts; a birth exactly on a later boundary belongs to the
            // piece it starts.
            // Birth k falls where the cell's local time is k / rate: a
            // negative timeOffset (count below 0 at the window's start)
            // bears nothing before local time 0, its first birth is k = 1
            // (k of 0 and below trapped converting to a key, and -1e20
            // stepped 1e20 births before any frame).
            let lowest = max(1, piece.first ? (n + 1).rounded(.down) : n.rounded(.up))
            var k = lowest
            if a >= piece.start {
                guard let first = EmitterSimulation.firstBirth(after: a, start: piece.start, count: n, rate: rate,
                                                               lowest: lowest, last: last) else { return }
                k = first
            }
            while k < last {
                let time = piece.start + (k - n) / rate
                if time >= piece.end || time > b { break }
                if !body(Int(k), time) { return }
                k += 1
            }
        }
    }

    /// The smallest birth number k >= lowest (below last) whose time,
    /// start + (k - count) / rate, is after a; nil when none is. Estimated,
    /// then corrected a step or two; where that does not settle, bisected:
    /// at rates near the largest doubles the times of many consecutive k
    /// round to the same double, and stepping one by one could take up to
    /// 2^53 steps (the render thread hung).
    @inline(__always)
    static func firstBirth(after a: Double, start: Double, count n: Double, rate: Double, lowest: Double,
                           last: Double) -> Double? {
        func after(_ k: Double) -> Bool { start + (k - n) / rate > a }
        var k = max(lowest, (n + (a - start) * rate).rounded(.down))
        guard k < last else { return nil }
        for _ in 0..<4 {
            if k > lowest, after(k - 1) { k -= 1; continue }
            if !after(k) {
                k += 1
                if k >= last { return nil }
                continue
            }
            return k
        }
        // Bisection: `lo` is never after a (or below lowest), `hi` always is
        // (or is last).
        var lo = lowest - 1, hi = last
        if after(k) { hi = k } else { lo = k }
        while hi - lo > 1 {
            let mid = ((lo + hi) / 2).rounded(.down)
            if mid >= lowest, after(mid) { hi = mid } else { lo = mid }
        }
        return hi < last ? hi : nil
    }

    /// The segment in effect at time t (the first for times before it).
    @inline(__always)
    func segmentIndex(at t: Double) -> Int {
        var j = segments.count - 1
        if j > 8, segments[j - 8].start > t {
            var lo = 0, hi = j // segments[hi].start > t
            while lo + 1 < hi {
                let mid = (lo + hi) / 2
                if segments[mid].start <= t { lo = mid } else { hi = mid }
            }
            return lo
        }
        while j > 0 && segments[j].start > t { j -= 1 }
        return j
    }

    /// The rate run in effect at time t (the first for times before it).
    func runIndex(at t: Double) -> Int {
        var lo = 0, hi = runs.count
        while lo + 1 < hi {
            let mid = (lo + hi) / 2
            if runs[mid].start <= t { lo = mid } else { hi = mid }
        }
        return lo
    }
}

/// The pieces of one cell's birth schedule: the rate runs clipped to its
/// emission window, each with the accumulated birth count at its start.
/// Counts add up piece by piece in time order, always by the same
/// operations, so every query (and the count carried over when old runs
/// are dropped) agrees to the last bit.
struct ScheduleWalk {
    struct Piece {
        var start: Double, end: Double
        /// Births accumulated from the window's start to `start`.
        var count: Double
        /// Births per second in this piece.
        var rate: Double
        var first: Bool
    }

    private let runs: [RateRun]
    private let pathKey: UInt64
    private let window: EmissionWindow
    private var index: Int
    private var pieceStart: Double
    private var count: Double
    private var first: Bool

    init(_ simulation: EmitterSimulation, pathKey: UInt64, window: EmissionWindow) {
        runs = simulation.runs
        self.pathKey = pathKey
        self.window = window
        if window.firstRunTime < runs[0].start, let carried = simulation.carriedCounts[pathKey] {
            // The runs before the first were dropped: resume from the count
            // they added up to.
            index = 0
            pieceStart = runs[0].start
            count = carried
            first = false
        } else {
            // Before the cell's start (a negative beginTime) it counts at
            // the rate of its start: the runs before a cell added later do
            // not have it (its pre-born particles were lost).
            index = simulation.runIndex(at: window.firstRunTime)
            pieceStart = window.begin
            count = 0
            first = true
        }
    }

    mutating func next() -> Piece? {
        guard index < runs.count, pieceStart < window.end else { return nil }
        let end = min(window.end, index + 1 < runs.count ? runs[index + 1].start : .infinity)
        let rate = (runs[index].rates[pathKey] ?? 0) * window.speed
        if first { count = window.timeOffset * rate }
        let piece = Piece(start: pieceStart, end: end, count: count, rate: rate, first: first)
        if rate > 0, end > pieceStart { count += (end - pieceStart) * rate }
        first = false
        pieceStart = end
        index += 1
        return piece
    }
}
