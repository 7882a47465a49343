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
/// part-way. A duration of 0 (the default) means the cell emits for as long
/// as its emitter lives. autoreverses doubles the active interval; fillMode
/// has no effect on emission (nothing is "held").
struct EmissionWindow {
    var begin: Double
    var end: Double
    var speed: Double
    var timeOffset: Double

    init(emitterStart: Double, emitterEnd: Double, timing t: TimingState) {
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
    /// before the window's end) of the cell `pathKey`; `known` saves the
    /// look-up of its params in one segment.
    @inline(__always)
    func forEachBirth(pathKey: UInt64, known: (segment: Int, params: Int32), window: EmissionWindow,
                      after a: Double, through b: Double, _ body: (Int, Double) -> Void) {
        guard window.speed > 0, window.begin < window.end, b > window.begin else { return }
        var j = segmentIndex(at: window.begin)
        var n = 0.0
        var first = true
        var pieceStart = window.begin
        while j < segments.count, pieceStart < window.end, pieceStart <= b {
            let segment = segments[j]
            let pieceEnd = min(window.end, j + 1 < segments.count ? segments[j + 1].start : .infinity)
            let params = j == known.segment ? known.params : (segment.byPath[pathKey] ?? -1)
            var rate = 0.0
            if params >= 0 {
                let cell = self.params[Int(params)].attributes
                if cell.enabled { rate = cell.birthRate * segment.configuration.birthRate * window.speed }
            }
            if first { n = window.timeOffset * rate }
            if rate > 0, pieceEnd > pieceStart {
                // The first piece counts births strictly after the window
                // starts; a birth exactly on a later boundary belongs to the
                // piece it starts.
                let lowest = first ? (n + 1).rounded(.down) : n.rounded(.up)
                var k = lowest
                if a > pieceStart {
                    k = max(lowest, (n + (a - pieceStart) * rate).rounded(.down))
                    while k > lowest, pieceStart + (k - 1 - n) / rate > a { k -= 1 }
                    while pieceStart + (k - n) / rate <= a { k += 1 }
                }
                while true {
                    let time = pieceStart + (k - n) / rate
                    if time >= pieceEnd || time > b { break }
                    body(Int(k), time)
                    k += 1
                }
                n += (pieceEnd - pieceStart) * rate
            }
            first = false
            pieceStart = pieceEnd
            j += 1
        }
    }

    /// The segment in effect at time t (the first for times before it).
    @inline(__always)
    func segmentIndex(at t: Double) -> Int {
        var j = segments.count - 1
        while j > 0 && segments[j].start > t { j -= 1 }
        return j
    }
}
