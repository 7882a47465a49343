import Glibc

/// A particle as it is at one time: what the render side draws (S7.4).
public struct ParticleState: Equatable, Sendable {
    public var x: Double, y: Double, z: Double
    public var vx: Double, vy: Double, vz: Double
    public var scale: Double
    /// Radians, clockwise on screen (S1.0).
    public var rotation: Double
    /// Straight alpha, each component clamped to 0...1.
    public var color: Color
    public var birthTime: Double
    public var deathTime: Double
    /// The particle's cell: index into the simulation's cell table
    /// (`contents(ofCell:)`, `contentsRect(ofCell:)`, `name(ofCell:)`),
    /// valid until the next `particles(at:)`.
    public var cell: Int32
    /// Unique per particle and the same in every run with the same seed.
    public var key: UInt64
}

/// A particle as born: everything its evolution needs, computed once from
/// its cell, its emitter and its own random draws.
struct Particle {
    var birth: Double
    var death: Double
    var key: UInt64
    var params: Int32
    /// The parent particle's scale at this one's birth (1 for a top-level
    /// cell's), multiplying its own. A Float (clamped to its range): it
    /// fills the padding after `params`, so the born state stays 112 bytes.
    var inheritedScale: Float
    var px: Double, py: Double, pz: Double
    var vx: Double, vy: Double, vz: Double
    var scale: Double
    var spin: Double
    var r: Float, g: Float, b: Float, a: Float

    @inline(__always) func isAlive(at t: Double) -> Bool { birth <= t && t < death }

    @inline(__always) static func isOrdered(_ p: Particle, _ q: Particle) -> Bool {
        p.birth < q.birth || (p.birth == q.birth && p.key < q.key)
    }
}

/// The particle simulation of an emitter layer (S7.4), on the render side:
/// given the configuration and cells as committed over time, the live
/// particles at any time t.
///
/// Each particle is born at an exact time from its cell's birth schedule
/// (EmitterTimeline.swift) and draws its attributes from a counter-based
/// random generator keyed by (seed, cell path, parent particle, birth
/// index); its state at t is a closed-form function of t (constant
/// acceleration, linear spin, scale and colour speeds). So a particle's
/// state at t never depends on which frames came before: any sequence of
/// frame times gives the same particles at shared times. Between frames the
/// live set is kept and advanced (births since the last time added, the
/// dead dropped); going back in time rebuilds it from the schedule.
public final class EmitterSimulation {
    /// The emitter's start, in the time the caller passes (the emitter
    /// layer's local time): births are counted from here.
    public let start: Double
    var segments: [TimelineSegment] = []
    var runs: [RateRun] = []
    /// For cells whose window began before the first run kept: the birth
    /// count accumulated up to that run's start.
    var carriedCounts: [UInt64: Double] = [:]
    var params: [CellParams] = []
    var motion: [CellMotion] = []
    /// Top-level cells: path, when their emission started (the emitter's
    /// start, or the change that added them) and its window.
    var roots: [(pathKey: UInt64, emitterStart: Double, window: EmissionWindow)] = []
    /// No particle chain (a particle and its descendants) lives longer.
    var span = 0.0

    var live: [Particle] = []
    var merged: [Particle] = []
    var born: [Particle] = []
    /// The time `live` is for; nil when it must be rebuilt.
    var liveTime: Double?
    var output: [ParticleState] = []

    public init(start: Double, configuration: EmitterConfiguration, cells: [EmitterCellSnapshot]) throws(LayerKitError) {
        self.start = start
        try update(configuration: configuration, cells: cells, at: start)
    }

    /// A change committed at `time`: births after it follow the new values;
    /// particles born before keep theirs. Changes come in time order; one at
    /// or before the last change's time replaces it.
    public func update(configuration: EmitterConfiguration, cells: [EmitterCellSnapshot], at time: Double) throws(LayerKitError) {
        guard time.isFinite else { throw .invalid("time: \(time) is not finite") }
        try configuration.validate()
        let at = max(time, segments.last?.start ?? start)
        if let last = segments.last, last.start == at {
            segments.removeLast()
            params.removeLast(params.count - Int(last.firstParams))
            motion.removeLast(motion.count - Int(last.firstParams))
        }
        var segment = TimelineSegment(start: at, configuration: configuration, roots: [], byPath: [:],
                                      firstParams: Int32(params.count))
        for (i, cell) in cells.enumerated() {
            segment.roots.append(flatten(cell, path: CellPath.key(CellPath.root, i), depth: 0,
                                         configuration: configuration, into: &segment))
        }
        segments.append(segment)
        // The earliest birth a cell started here can have (before `at` with
        // a negative beginTime).
        var earliestNew = Double.infinity
        for (i, root) in segment.roots.enumerated() {
            let window = EmissionWindow(emitterStart: at, emitterEnd: .infinity, timing: params[Int(root)].attributes.timing)
            if i >= roots.count {
                roots.append((CellPath.key(CellPath.root, i), at, window))
            } else if roots[i].emitterStart == at {
                // A change at the instant the cell started replaces its timing too.
                roots[i].window = window
            } else {
                continue
            }
            earliestNew = min(earliestNew, window.begin)
        }
        // A new run only when some birth rate changed.
        var rates: [UInt64: Double] = [:]
        for (path, index) in segment.byPath {
            let a = params[Int(index)].attributes
            let rate = a.enabled ? a.birthRate * configuration.birthRate : 0
            if rate > 0 { rates[path] = rate }
        }
        if let last = runs.last, last.start == at { runs.removeLast() }
        if runs.last?.rates != rates || runs.isEmpty { runs.append(RateRun(start: at, rates: rates)) }
        var longest: [Double] = []
        for p in params {
            if longest.count <= p.depth { longest.append(0) }
            longest[p.depth] = max(longest[p.depth], p.maxLifetime)
        }
        span = longest.reduce(0, +)
        // Births after the change may already be in the live set; a cell
        // that begins before the live set's time has births a step from it
        // would not see (a negative beginTime: born before it was added).
        if let t = liveTime, t >= at || earliestNew < t { liveTime = nil }
    }

    private func flatten(_ cell: EmitterCellSnapshot, path: UInt64, depth: Int,
                         configuration c: EmitterConfiguration, into segment: inout TimelineSegment) -> Int32 {
        var a = cell.attributes
        a.lifetime *= c.lifetime; a.lifetimeRange *= c.lifetime
        a.velocity *= c.velocity; a.velocityRange *= c.velocity
        // Sub-cells' particles inherit their parent's scale, which carries
        // the multiplier already: applied again it would square.
        if depth == 0 { a.scale *= c.scale; a.scaleRange *= c.scale; a.scaleSpeed *= c.scale }
        a.spin *= c.spin; a.spinRange *= c.spin
        let index = Int32(params.count)
        params.append(CellParams(attributes: a, contents: cell.contents, name: cell.name, pathKey: path, depth: depth,
                                 children: [], maxLifetime: max(0, a.lifetime + abs(a.lifetimeRange) / 2)))
        motion.append(CellMotion(ax: a.xAcceleration, ay: a.yAcceleration, az: a.zAcceleration, scaleSpeed: a.scaleSpeed,
                                 redSpeed: a.redSpeed, greenSpeed: a.greenSpeed, blueSpeed: a.blueSpeed,
                                 alphaSpeed: a.alphaSpeed, hasChildren: !cell.emitterCells.isEmpty))
        segment.byPath[path] = index
        var children: [Int32] = []
        for (j, sub) in cell.emitterCells.enumerated() {
            children.append(flatten(sub, path: CellPath.key(path, j), depth: depth + 1, configuration: c, into: &segment))
        }
        params[Int(index)].children = children
        return index
    }

    // MARK: - Cells of particles

    public func contents(ofCell cell: Int32) -> Image? { params[Int(cell)].contents }
    public func contentsRect(ofCell cell: Int32) -> Rect { params[Int(cell)].attributes.contentsRect }
    public func contentsScale(ofCell cell: Int32) -> Double { params[Int(cell)].attributes.contentsScale }
    public func filters(ofCell cell: Int32) -> (magnification: ContentsFilter, minification: ContentsFilter) {
        let a = params[Int(cell)].attributes
        return (a.magnificationFilter, a.minificationFilter)
    }
    public func name(ofCell cell: Int32) -> String? { params[Int(cell)].name }
    /// 0 for top-level cells, 1 for their sub-cells, ...
    public func depth(ofCell cell: Int32) -> Int { params[Int(cell)].depth }
    /// The configuration in effect at time t.
    public func configuration(at t: Double) -> EmitterConfiguration { segments[segmentIndex(at: t)].configuration }

    /// Particles alive now (after the last `particles(at:)`).
    public var liveCount: Int { live.count }

    /// Bytes the simulation keeps per live particle (its born state, the
    /// space to merge births into, and its evaluated state).
    public static var bytesPerLiveParticle: Int {
        2 * MemoryLayout<Particle>.stride + MemoryLayout<ParticleState>.stride
    }

    // MARK: - Stepping

    /// The live particles at t, in drawing order for the render mode in
    /// effect at t: oldest first (unordered, oldestFirst, additive), newest
    /// first (oldestLast), or by z, farthest first (backToFront).
    public func particles(at t: Double) -> [ParticleState] {
        advance(to: t)
        evaluate(at: t)
        return output
    }

    func advance(to t: Double) {
        // A step longer than the longest chain's life leaves nothing of the
        // particles alive before it: the schedule alone gives those alive
        // at t. Stepped, a jump of an hour bore every particle of it in
        // time order and reached maximumBirthsPerStep before the ones still
        // alive at t (50 a second: an empty frame after 4,000 s).
        if let last = liveTime, last <= t, t - last <= span {
            if last < t { step(from: last, to: t) }
        } else {
            rebuild(at: t)
        }
        liveTime = t
        prune(before: t - span - EmitterSimulation.historyMargin)
    }

    /// History kept beyond the longest particle chain: seeking back within
    /// it gives exactly the particles a fresh run would.
    static let historyMargin = 1.0
    /// Old segments and runs go in batches of this many, so that a change
    /// every frame (an animated emitter property) costs little.
    static let pruneBatch = 64

    /// Drops the segments (and their cells) and rate runs that ended before
    /// `horizon`: no particle alive after it was born under them. A cell
    /// whose emission began earlier keeps its birth count at the first run
    /// kept, so births after it fall where they would have.
    func prune(before horizon: Double) {
        let r = runIndex(at: horizon)
        if r >= EmitterSimulation.pruneBatch {
            let boundary = runs[r].start
            for root in roots where root.window.firstRunTime < boundary {
                var walk = ScheduleWalk(self, pathKey: root.pathKey, window: root.window)
                while let piece = walk.next() {
                    if piece.start >= boundary { carriedCounts[root.pathKey] = piece.count; break }
                }
            }
            runs.removeFirst(r)
        }
        let j = segmentIndex(at: horizon)
        if j >= EmitterSimulation.pruneBatch {
            let base = segments[j].firstParams
            params.removeFirst(Int(base))
            motion.removeFirst(Int(base))
            for i in params.indices where !params[i].children.isEmpty {
                params[i].children = params[i].children.map { $0 - base }
            }
            segments.removeFirst(j)
            for i in segments.indices {
                segments[i].firstParams -= base
                segments[i].roots = segments[i].roots.map { $0 - base }
                segments[i].byPath = segments[i].byPath.mapValues { $0 - base }
            }
            for i in live.indices { live[i].params -= base }
        }
    }

    /// At most this many births per step (per frame, or per rebuild): beyond
    /// it the rest are dropped. Only birth rates far past any useful one
    /// reach it (10,000 particles a frame is a heavy scene; 1e300 a second
    /// is a mistake), and they must not stall the render thread or exhaust
    /// memory. Below it, frames stay independent of the frame rate (S7.4).
    static let maximumBirthsPerStep = 200_000
    /// At most this many particles alive at once in one emitter (20 times
    /// the heavy scene of the particle benchmark, whose frame takes about
    /// 25 ms on the software backend): births beyond it are dropped.
    /// Without it, an absurd rate with a long lifetime grew the live set by
    /// a step's births every frame until memory ran out, each frame slower.
    static let maximumLiveParticles = 200_000

    /// Room for one more birth in this step.
    @inline(__always)
    private var mayBear: Bool {
        born.count < EmitterSimulation.maximumBirthsPerStep
            && live.count + born.count < EmitterSimulation.maximumLiveParticles
    }

    /// Every particle alive at t, from the schedule alone.
    func rebuild(at t: Double) {
        born.removeAll(keepingCapacity: true)
        live.removeAll(keepingCapacity: true)
        emitRoots(after: t - span, through: t)
        for p in born where p.isAlive(at: t) { live.append(p) }
        live.sort(by: Particle.isOrdered)
    }

    /// From the particles alive at a to those alive at b > a.
    func step(from a: Double, to b: Double) {
        born.removeAll(keepingCapacity: true)
        for i in live.indices where motion[Int(live[i].params)].hasChildren {
            emitChildren(of: live[i], after: a, through: b)
        }
        emitRoots(after: a, through: b)
        var fresh = born.filter { $0.isAlive(at: b) }
        fresh.sort(by: Particle.isOrdered)
        // Merge the survivors (in order already) with the new births.
        merged.removeAll(keepingCapacity: true)
        merged.reserveCapacity(live.count + fresh.count)
        var j = 0
        for p in live where p.death > b {
            while j < fresh.count, Particle.isOrdered(fresh[j], p) { merged.append(fresh[j]); j += 1 }
            merged.append(p)
        }
        while j < fresh.count { merged.append(fresh[j]); j += 1 }
        swap(&live, &merged)
    }

    /// Births of top-level cells in (a, b], with their descendants through b.
    private func emitRoots(after a: Double, through b: Double) {
        for (index, root) in roots.enumerated() {
            forEachBirth(pathKey: root.pathKey, window: root.window, after: a, through: b) { k, time in
                guard mayBear else { return false }
                // Born before the cell's start (a negative beginTime): with
                // the values it started with, as a cell there from the
                // simulation's start has (the segments before a cell added
                // later do not have it).
                let s = segmentIndex(at: max(time, root.emitterStart))
                guard let cell = segments[s].byPath[root.pathKey] else { return true }
                let seedKey = ParticleRandom.key(UInt64(segments[s].configuration.seed), UInt64(index))
                let p = bornFromEmitter(cell: cell, key: ParticleRandom.key(seedKey, UInt64(k)), at: time, segment: s)
                born.append(p)
                if motion[Int(cell)].hasChildren { emitChildren(of: p, after: p.birth, through: b) }
                return true
            }
        }
    }

    /// Births of `parent`'s sub-cells in (a, b], with their descendants.
    private func emitChildren(of parent: Particle, after a: Double, through b: Double) {
        let parentSegment = segmentIndex(at: parent.birth)
        let children = params[Int(parent.params)].children
        for (j, child) in children.enumerated() {
            let pathKey = params[Int(child)].pathKey
            let window = EmissionWindow(emitterStart: parent.birth, emitterEnd: parent.death,
                                        timing: params[Int(child)].attributes.timing)
            let childKey = ParticleRandom.key(parent.key, UInt64(j))
            forEachBirth(pathKey: pathKey, window: window, after: max(a, parent.birth), through: b) { k, time in
                guard mayBear else { return false }
                let s = segmentIndex(at: time)
                let cell = s == parentSegment ? child : (segments[s].byPath[pathKey] ?? -1)
                guard cell >= 0 else { return true }
                let p = bornFromParent(parent, cell: cell, key: ParticleRandom.key(childKey, UInt64(k)), at: time, segment: s)
                born.append(p)
                if motion[Int(cell)].hasChildren { emitChildren(of: p, after: p.birth, through: b) }
                return true
            }
        }
    }

    // MARK: - Birth

    private func bornFromEmitter(cell: Int32, key: UInt64, at time: Double, segment: Int) -> Particle {
        let random = ParticleRandom(key: key)
        let e = EmitterGeometry.point(segments[segment].configuration, random)
        return born(cell: cell, random: random, at: time, x: e.x, y: e.y, z: e.z,
                    base: (e.nx, e.ny, e.nz), parent: nil)
    }

    /// CAEmitterCell.h: "The emission point is the current particle position
    /// and the emission angle is relative to the current direction of the
    /// particle." The parent's colour and scale at that moment multiply the
    /// child's (CAEmitterCell.emitterCells: "the scale and color of
    /// fireworkCell are inherited by trailCell"; how the fireworks' sparks
    /// take their rocket's random colour).
    private func bornFromParent(_ parent: Particle, cell: Int32, key: UInt64, at time: Double, segment: Int) -> Particle {
        let s = state(of: parent, at: time)
        let speed = (s.vx * s.vx + s.vy * s.vy + s.vz * s.vz).squareRoot()
        let base = speed > 0 ? (s.vx / speed, s.vy / speed, s.vz / speed) : (1.0, 0.0, 0.0)
        return born(cell: cell, random: ParticleRandom(key: key), at: time, x: s.x, y: s.y, z: s.z,
                    base: base, parent: (s.color, s.scale))
    }

    /// Draws 0-2 are the emission point's; 3-4 the direction; then lifetime,
    /// velocity, scale, spin and the four colour ranges.
    private func born(cell: Int32, random: ParticleRandom, at time: Double, x: Double, y: Double, z: Double,
                      base: (Double, Double, Double), parent: (color: Color, scale: Double)?) -> Particle {
        let a = params[Int(cell)].attributes
        let (dx, dy, dz) = EmitterGeometry.direction(baseX: base.0, baseY: base.1, baseZ: base.2,
                                                     longitude: a.emissionLongitude, latitude: a.emissionLatitude,
                                                     range: a.emissionRange, random, 3)
        let lifetime = max(0, random.around(a.lifetime, a.lifetimeRange, 5))
        let speed = random.around(a.velocity, a.velocityRange, 6)
        func unit(_ v: Double) -> Double { min(1, max(0, v)) }
        var r = unit(random.around(a.color.r, a.redRange, 9)), g = unit(random.around(a.color.g, a.greenRange, 10))
        var b = unit(random.around(a.color.b, a.blueRange, 11)), al = unit(random.around(a.color.a, a.alphaRange, 12))
        if let p = parent?.color { r *= p.r; g *= p.g; b *= p.b; al *= p.a }
        return Particle(birth: time, death: time + lifetime, key: random.key, params: cell,
                        inheritedScale: Float(min(parent?.scale ?? 1, Double(Float.greatestFiniteMagnitude))),
                        px: x, py: y, pz: z, vx: dx * speed, vy: dy * speed, vz: dz * speed,
                        scale: random.around(a.scale, a.scaleRange, 7), spin: random.around(a.spin, a.spinRange, 8),
                        r: Float(r), g: Float(g), b: Float(b), a: Float(al))
    }

    // MARK: - Evolution

    /// Closed form: p = p0 + v0 t + a t^2 / 2; rotation = spin t; scale and
    /// colour change linearly (scale not below 0, colour within 0...1); the
    /// inherited scale multiplies the whole of the particle's own, so a
    /// shrinking spark keeps its lifetime's shape at any parent's size.
    @inline(__always)
    func state(of p: Particle, at t: Double) -> ParticleState {
        let m = motion[Int(p.params)]
        let age = t - p.birth
        let half = 0.5 * age * age
        func unit(_ v: Double) -> Double { min(1, max(0, v)) }
        return ParticleState(
            x: p.px + p.vx * age + m.ax * half, y: p.py + p.vy * age + m.ay * half, z: p.pz + p.vz * age + m.az * half,
            vx: p.vx + m.ax * age, vy: p.vy + m.ay * age, vz: p.vz + m.az * age,
            scale: max(0, p.scale + m.scaleSpeed * age) * Double(p.inheritedScale), rotation: p.spin * age,
            color: Color(r: unit(Double(p.r) + m.redSpeed * age), g: unit(Double(p.g) + m.greenSpeed * age),
                         b: unit(Double(p.b) + m.blueSpeed * age), a: unit(Double(p.a) + m.alphaSpeed * age)),
            birthTime: p.birth, deathTime: p.death, cell: p.params, key: p.key)
    }

    private func evaluate(at t: Double) {
        output.removeAll(keepingCapacity: true)
        output.reserveCapacity(live.count)
        for p in live { output.append(state(of: p, at: t)) }
        switch segments[segmentIndex(at: t)].configuration.renderMode {
        case .unordered, .oldestFirst, .additive:
            break
        case .oldestLast:
            output.reverse()
        case .backToFront:
            // Stable: equal depths keep the oldest-first order.
            output = output.enumerated().sorted { ($0.element.z, $0.offset) < ($1.element.z, $1.offset) }.map(\.element)
        }
    }
}
