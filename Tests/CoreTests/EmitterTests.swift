import Glibc
import Testing
@testable import LayerKitCore

// S7.4: emitter cells and the particle simulation (numbers, no pixels).

private func cell(_ name: String? = nil, _ configure: (inout EmitterCellAttributes) -> Void,
                  children: [EmitterCell] = []) -> EmitterCell {
    let c = EmitterCell()
    c.name = name
    configure(&c.attributes)
    try! c.setEmitterCells(children)
    return c
}

private func configuration(_ configure: (inout EmitterConfiguration) -> Void) -> EmitterConfiguration {
    var c = EmitterConfiguration()
    configure(&c)
    return c
}

/// The seed document's snow, as Core Animation samples build it: a volume
/// emitter along a line above the top edge, flakes falling with spin and a
/// scale range.
private func snow(seed: UInt32 = 7) -> (EmitterConfiguration, [EmitterCell]) {
    let config = configuration {
        $0.emitterPosition = Point(x: 160, y: -10)
        $0.emitterSize = Size(width: 320, height: 0)
        $0.emitterShape = .line
        $0.emitterMode = .volume
        $0.seed = seed
    }
    let flake = cell("snow") {
        $0.birthRate = 20
        $0.lifetime = 12
        $0.velocity = 30
        $0.velocityRange = 10
        $0.yAcceleration = 4
        $0.emissionLongitude = Double.pi / 2
        $0.emissionRange = Double.pi / 4
        $0.spin = 0.5
        $0.spinRange = 1
        $0.scale = 0.5
        $0.scaleRange = 0.3
    }
    return (config, [flake])
}

/// Apple's fireworks: rockets whose particles each emit one burst at 1 s,
/// whose particle emits sparks for its 0.35 s; additive rendering.
private func fireworks(seed: UInt32 = 3) -> (EmitterConfiguration, [EmitterCell]) {
    let config = configuration {
        $0.emitterPosition = Point(x: 160, y: 480)
        $0.emitterSize = Size(width: 160, height: 0)
        $0.emitterShape = .line
        $0.emitterMode = .outline
        $0.renderMode = .additive
        $0.seed = seed
    }
    let spark = cell("spark") {
        $0.birthRate = 400
        $0.velocity = 125
        $0.emissionRange = 2 * Double.pi
        $0.yAcceleration = 75
        $0.lifetime = 3
        $0.scale = 0.1
        $0.scaleSpeed = -0.1
        $0.greenSpeed = -0.1
        $0.redSpeed = 0.4
        $0.blueSpeed = -0.1
        $0.alphaSpeed = -0.25
        $0.spin = 2 * Double.pi
        $0.spinRange = 2 * Double.pi
    }
    let burst = cell("burst", {
        $0.birthRate = 1
        $0.velocity = 0
        $0.scale = 2.5
        $0.redSpeed = -1.5
        $0.blueSpeed = 1.5
        $0.greenSpeed = 1
        $0.lifetime = 0.35
    }, children: [spark])
    let rocket = cell("rocket", {
        $0.birthRate = 1
        $0.emissionLongitude = -Double.pi / 2
        $0.emissionRange = Double.pi / 4
        $0.velocity = 380
        $0.velocityRange = 100
        $0.yAcceleration = 75
        $0.lifetime = 1.02
        $0.color = Color(r: 0.5, g: 0.5, b: 0.5, a: 1)
        $0.redRange = 1
        $0.greenRange = 1
        $0.blueRange = 1
        $0.spinRange = Double.pi
    }, children: [burst])
    return (config, [rocket])
}

private func simulation(_ scene: (EmitterConfiguration, [EmitterCell]), start: Double = 0) -> EmitterSimulation {
    try! EmitterSimulation(start: start, configuration: scene.0, cells: scene.1.map(\.snapshot))
}

/// Still particles: where they are is where they were born.
private func still(_ shape: EmitterShape, _ mode: EmitterMode) -> EmitterSimulation {
    let config = configuration {
        $0.emitterPosition = Point(x: 100, y: 50)
        $0.emitterZPosition = 5
        $0.emitterSize = Size(width: 100, height: 40)
        $0.emitterDepth = 20
        $0.emitterShape = shape
        $0.emitterMode = mode
    }
    return simulation((config, [cell { $0.birthRate = 500; $0.lifetime = 10 }]))
}

@Suite struct EmitterCellTests {
    @Test func defaultsAreCoreAnimationsS7_4() throws {
        let c = EmitterCell()
        let a = c.attributes
        #expect(c.name == nil && a.enabled && c.contents == nil && c.emitterCells.isEmpty)
        #expect(a.birthRate == 0 && a.lifetime == 0 && a.lifetimeRange == 0 && a.velocity == 0 && a.velocityRange == 0)
        #expect(a.emissionLatitude == 0 && a.emissionLongitude == 0 && a.emissionRange == 0)
        #expect(a.xAcceleration == 0 && a.yAcceleration == 0 && a.zAcceleration == 0)
        #expect(a.scale == 1 && a.scaleRange == 0 && a.scaleSpeed == 0 && a.spin == 0 && a.spinRange == 0)
        #expect(a.color == Color(r: 1, g: 1, b: 1, a: 1))
        #expect(a.redRange == 0 && a.greenRange == 0 && a.blueRange == 0 && a.alphaRange == 0)
        #expect(a.redSpeed == 0 && a.greenSpeed == 0 && a.blueSpeed == 0 && a.alphaSpeed == 0)
        #expect(a.contentsRect == Rect.unit)
        #expect(a.timing == TimingState())
        let e = EmitterConfiguration()
        #expect(e.emitterShape == .point && e.emitterMode == .volume && e.renderMode == .unordered)
        #expect(e.birthRate == 1 && e.lifetime == 1 && e.velocity == 1 && e.scale == 1 && e.spin == 1)
        #expect(e.seed == 0 && !e.preservesDepth && e.emitterSize == .zero && e.emitterDepth == 0)
    }

    @Test func keyPathsReachSubCellsByNameS7_4() throws {
        let spark = cell("spark") { $0.birthRate = 400 }
        let burst = cell("burst", { $0.birthRate = 1 }, children: [spark])
        let rocket = cell("rocket", { _ in }, children: [burst])
        try rocket.setValue(.number(250), forKeyPath: "emitterCells.burst.emitterCells.spark.birthRate")
        #expect(spark.attributes.birthRate == 250)
        #expect(try rocket.value(forKeyPath: "emitterCells.burst.emitterCells.spark.birthRate") == .number(250))
        try rocket.setValue(.number(0.5), forKeyPath: "emitterCells.burst.contentsRect.size.width")
        #expect(burst.attributes.contentsRect == Rect(x: 0, y: 0, width: 0.5, height: 1))
        #expect(try rocket.valueType(forKeyPath: "emitterCells.burst.color") == .color)
        try rocket.setValue(.string("both"), forKeyPath: "fillMode")
        #expect(rocket.attributes.timing.fillMode == .both)
    }

    @Test func badInputNamesTheKeyPathAndChangesNothingS1_6() throws {
        let spark = cell("spark") { $0.birthRate = 4 }
        let rocket = cell("rocket", { _ in }, children: [spark])
        func error(_ body: () throws -> Void) -> LayerKitError? {
            do { try body(); return nil } catch { return error as? LayerKitError }
        }
        let unknown = error { try rocket.setValue(.number(1), forKeyPath: "emitterCells.nope.birthRate") }
        #expect(unknown?.status == .unknownKeyPath && unknown?.message.contains("nope") == true)
        let negative = error { try rocket.setValue(.number(-1), forKeyPath: "emitterCells.spark.birthRate") }
        #expect(negative?.status == .invalidArgument && negative?.message.contains("emitterCells.spark.birthRate") == true)
        let wrongType = error { try rocket.setValue(.bool(true), forKeyPath: "emitterCells.spark.velocity") }
        #expect(wrongType?.status == .typeMismatch && wrongType?.message.contains("number") == true)
        let notFinite = error { try rocket.setValue(.number(.nan), forKeyPath: "lifetime") }
        #expect(notFinite?.status == .invalidArgument)
        let colour = error { try rocket.setValue(.color(Color(r: 2, g: 0, b: 0, a: 1)), forKeyPath: "color") }
        #expect(colour?.message.contains("color") == true)
        #expect(spark.attributes.birthRate == 4 && spark.attributes.velocity == 0 && rocket.attributes.lifetime == 0)
        let cycle = error { try spark.setEmitterCells([rocket]) }
        #expect(cycle?.status == .hierarchy && spark.emitterCells.isEmpty)
        try rocket.setValue(.number(2), forKeyPath: "repeatCount")
        let exclusive = error { try rocket.setValue(.number(3), forKeyPath: "repeatDuration") }
        #expect(exclusive?.status == .state && rocket.attributes.timing.repeatDuration == 0)
    }

    @Test func copyIsDeepS7_4() throws {
        let spark = cell("spark") { $0.birthRate = 4 }
        let rocket = cell("rocket", { $0.velocity = 3 }, children: [spark])
        let copy = rocket.copy()
        try copy.setValue(.number(9), forKeyPath: "emitterCells.spark.birthRate")
        try copy.setValue(.number(7), forKeyPath: "velocity")
        #expect(spark.attributes.birthRate == 4 && rocket.attributes.velocity == 3)
        #expect(copy.emitterCells[0] !== spark && copy.emitterCells[0].name == "spark")
    }
}

@Suite struct EmitterSimulationTests {
    @Test func sameSeedSameParticlesOtherSeedOthersS7_4() {
        let a = simulation(snow(seed: 7)).particles(at: 5)
        let b = simulation(snow(seed: 7)).particles(at: 5)
        let c = simulation(snow(seed: 8)).particles(at: 5)
        #expect(a.count == 100 && a == b)
        #expect(c.count == a.count && zip(a, c).filter { $0.x != $1.x }.count > 90)
    }

    @Test func frameRateIndependentSnowS7_4() {
        let at30 = simulation(snow()), at60 = simulation(snow()), jump = simulation(snow())
        var compared = 0
        for i in 0...(30 * 14) {
            let t = Double(i) / 30
            let a = at30.particles(at: t)
            _ = at60.particles(at: Double(2 * i - 1) / 60) // the 60 fps frame in between
            let b = at60.particles(at: Double(2 * i) / 60)
            #expect(a == b)
            compared += a.count
        }
        #expect(compared > 50_000)
        // One jump, and back in time: the same particles.
        #expect(jump.particles(at: 14) == at30.particles(at: 14))
        #expect(jump.particles(at: 6.5) == simulation(snow()).particles(at: 6.5))
        #expect(jump.particles(at: 13) == at60.particles(at: 13))
    }

    @Test func frameRateIndependentFireworksS7_4() {
        let at30 = simulation(fireworks()), at60 = simulation(fireworks()), jump = simulation(fireworks())
        var sparks = 0
        for i in 0...(30 * 8) {
            let a = at30.particles(at: Double(i) / 30)
            _ = at60.particles(at: Double(2 * i - 1) / 60)
            #expect(a == at60.particles(at: Double(2 * i) / 60))
            sparks += a.filter { at30.depth(ofCell: $0.cell) == 2 }.count
        }
        #expect(sparks > 10_000)
        #expect(jump.particles(at: 7.5) == at30.particles(at: 7.5))
        #expect(jump.particles(at: 3.2) == simulation(fireworks()).particles(at: 3.2))
    }

    @Test func birthsFollowTheRateS7_4() {
        // k-th birth at k / rate: floor(rate * t) births by t.
        let sim = simulation(snow())
        #expect(sim.particles(at: 10).count == 200)
        #expect(sim.particles(at: 0.049).count == 0)
        #expect(sim.particles(at: 0.05).count == 1)
        let births = sim.particles(at: 10).map(\.birthTime).sorted()
        for (i, t) in births.enumerated() { #expect(near(t, Double(i + 1) / 20, 1e-12)) }
        // Layer multiplier: twice the rate.
        var (config, cells) = snow()
        config.birthRate = 2
        #expect(simulation((config, cells)).particles(at: 10).count == 400)
        cells[0].attributes.birthRate = 7.5
        config.birthRate = 1
        #expect(simulation((config, cells)).particles(at: 4).count == 30)
    }

    /// S8.1: an absurd rate with a long lifetime. A step adds at most
    /// 200,000 births, and no more than 200,000 are alive at once (the live
    /// set grew by a step's births every frame until memory ran out).
    @Test func absurdRatesStayBoundedS8_1() {
        let sim = simulation((configuration { _ in }, [cell { $0.birthRate = 1e12; $0.lifetime = 1e6 }]))
        var counts: [Int] = []
        for frame in 1...3 {
            sim.advance(to: Double(frame) / 60)
            counts.append(sim.liveCount)
        }
        #expect(counts[0] == EmitterSimulation.maximumBirthsPerStep)
        #expect(counts[1] == EmitterSimulation.maximumLiveParticles && counts[2] == counts[1])
    }

    @Test func birthRateZeroStopsBirthsLiveOnesFinishS7_4() throws {
        let (config, cells) = snow()
        let sim = simulation((config, cells))
        _ = sim.particles(at: 9.5)
        cells[0].attributes.birthRate = 0
        try sim.update(configuration: config, cells: cells.map(\.snapshot), at: 10)
        // The change applies from 10 on: the birth due at exactly 10 s is not made.
        let at10 = sim.particles(at: 10)
        #expect(at10.count == 199)
        let at15 = sim.particles(at: 15)
        #expect(at15.allSatisfy { $0.birthTime <= 10 })
        #expect(at15.count == at10.filter { $0.deathTime > 15 }.count && at15.count == 139)
        #expect(sim.particles(at: 22.01).isEmpty)
        // The same from a fresh run of the same history, and going back.
        let other = simulation((config, snow().1))
        try other.update(configuration: config, cells: cells.map(\.snapshot), at: 10)
        #expect(other.particles(at: 15) == at15)
        #expect(sim.particles(at: 9) == simulation(snow()).particles(at: 9))
    }

    @Test func rateChangesCountPiecewiseS7_4() throws {
        let (config, cells) = snow()
        cells[0].attributes.lifetime = 100
        let sim = simulation((config, cells))
        cells[0].attributes.birthRate = 40
        try sim.update(configuration: config, cells: cells.map(\.snapshot), at: 5)
        #expect(sim.particles(at: 10).count == 100 + 200)
    }

    /// Changes every 50 ms (an animated birthRate and emitterPosition):
    /// history stays bounded, and frames at 30 or 60 fps, or one jump after
    /// every change, give the same particles.
    @Test func frequentChangesStayBoundedAndExactS7_4() throws {
        // Cell indices change when history is dropped: compare cells by path.
        func byPath(_ sim: EmitterSimulation, _ p: [ParticleState]) -> [ParticleState] {
            p.map { var q = $0; q.cell = Int32(truncatingIfNeeded: sim.params[Int($0.cell)].pathKey); return q }
        }
        func history(frames fps: Double?, until end: Double) throws -> (EmitterSimulation, [Double: [ParticleState]]) {
            let (config, cells) = snow()
            cells[0].attributes.lifetime = 1
            let sim = simulation((config, cells))
            var seen: [Double: [ParticleState]] = [:]
            var frame = 0
            for i in 1...Int(end * 20) {
                let at = Double(i) / 20
                if let fps {
                    while Double(frame + 1) / fps < at { frame += 1; seen[Double(frame) / fps] = byPath(sim, sim.particles(at: Double(frame) / fps)) }
                }
                var c = config
                c.emitterPosition.x = 160 + 100 * sin(at)
                cells[0].attributes.birthRate = 20 + 15 * sin(3 * at)
                try sim.update(configuration: c, cells: cells.map(\.snapshot), at: at)
            }
            seen[end] = byPath(sim, sim.particles(at: end))
            return (sim, seen)
        }
        let (at60, frames60) = try history(frames: 60, until: 30)
        let (_, frames30) = try history(frames: 30, until: 30)
        let (jump, _) = try history(frames: nil, until: 30)
        #expect(at60.segments.count < 2 * EmitterSimulation.pruneBatch + 60 && at60.runs.count < 2 * EmitterSimulation.pruneBatch + 60)
        #expect(at60.params.count == at60.segments.count)
        for (t, particles) in frames30 where t.truncatingRemainder(dividingBy: 1) == 0 || t == 30 {
            #expect(frames60[t] == particles)
        }
        let framed = frames60[30]!
        #expect(byPath(jump, jump.particles(at: 30)) == framed && framed.count > 10)
        // Seeking back within the history kept: the same as going forward.
        #expect(byPath(at60, at60.particles(at: 29.5)) == frames60[29.5])
    }

    /// A cell added by a later change starts emitting then; the cells that
    /// were there keep their schedule.
    @Test func cellAddedLaterStartsThenS7_4() throws {
        let (config, cells) = snow()
        cells[0].attributes.lifetime = 100
        let sim = simulation((config, cells))
        _ = sim.particles(at: 3)
        let rain = cell("rain") { $0.birthRate = 4; $0.lifetime = 100 }
        try sim.update(configuration: config, cells: (cells + [rain]).map(\.snapshot), at: 5)
        let p = sim.particles(at: 10)
        let drops = p.filter { sim.name(ofCell: $0.cell) == "rain" }
        #expect(drops.count == 20 && drops.map(\.birthTime).min() == 5.25)
        #expect(p.filter { sim.name(ofCell: $0.cell) == "snow" }.count == 200)
    }

    @Test func lifetimeRangeHonouredS7_4() {
        let config = configuration { $0.seed = 11 }
        let sim = simulation((config, [cell { $0.birthRate = 200; $0.lifetime = 2; $0.lifetimeRange = 1 }]))
        let lives = sim.particles(at: 1.4).map { $0.deathTime - $0.birthTime }
        #expect(lives.count == 280)
        // [M - R/2, M + R/2]
        #expect(lives.allSatisfy { $0 >= 1.5 && $0 <= 2.5 })
        #expect(lives.min()! < 1.6 && lives.max()! > 2.4)
        // Multiplier: lifetime scales mean and range.
        var half = config
        half.lifetime = 0.5
        let short = simulation((half, [cell { $0.birthRate = 200; $0.lifetime = 2; $0.lifetimeRange = 1 }]))
        #expect(short.particles(at: 2).allSatisfy { $0.deathTime - $0.birthTime <= 1.25 + 1e-12 })
    }

    @Test func motionSpinScaleClosedFormS7_4() {
        let sim = simulation((configuration { $0.emitterPosition = Point(x: 10, y: 20) },
                              [cell { $0.birthRate = 1; $0.lifetime = 10; $0.velocity = 5; $0.emissionLongitude = Double.pi / 2
                                  $0.xAcceleration = 2; $0.yAcceleration = -4; $0.spin = 0.5; $0.scale = 2; $0.scaleSpeed = -0.25 }]))
        let p = sim.particles(at: 3)
        #expect(p.count == 3)
        let first = p[0] // born at 1, age 2
        #expect(near(first.x, 10 + 0.5 * 2 * 4, 1e-9) && near(first.y, 20 + 5 * 2 - 0.5 * 4 * 4, 1e-9))
        #expect(near(first.vx, 4, 1e-9) && near(first.vy, 5 - 8, 1e-9))
        #expect(first.rotation == 1 && first.scale == 1.5)
    }

    @Test func colourSpeedsClampS7_4() {
        let sim = simulation((EmitterConfiguration(),
                              [cell { $0.birthRate = 1; $0.lifetime = 10; $0.color = Color(r: 1, g: 0.5, b: 0, a: 1)
                                  $0.redSpeed = -0.2; $0.greenSpeed = 1; $0.alphaSpeed = -0.5 }]))
        let p = sim.particles(at: 4)[0] // age 3
        #expect(near(p.color.r, 0.4, 1e-7) && p.color.g == 1 && p.color.b == 0 && p.color.a == 0)
        let young = sim.particles(at: 1.25)[0]
        #expect(near(young.color.a, 0.875, 1e-7) && near(young.color.g, 0.75, 1e-7))
    }

    @Test func scaleAndSpinRangesS7_4() {
        let all = simulation(snow()).particles(at: 10)
        // scale 0.5 ± 0.15 at birth; scaleSpeed 0.
        #expect(all.allSatisfy { $0.scale >= 0.35 && $0.scale <= 0.65 })
        #expect(all.map(\.scale).max()! - all.map(\.scale).min()! > 0.25)
        // spin 0.5 ± 0.5 rad/s
        #expect(all.allSatisfy { let age = 10 - $0.birthTime; return age == 0 || ($0.rotation / age >= -1e-12 && $0.rotation / age <= 1 + 1e-12) })
    }

    @Test func emissionDirectionAndConeS7_4() {
        let straight = simulation((EmitterConfiguration(),
                                   [cell { $0.birthRate = 10; $0.lifetime = 5; $0.velocity = 10; $0.emissionLongitude = Double.pi / 2 }]))
        #expect(straight.particles(at: 1).allSatisfy { near($0.vx, 0, 1e-9) && near($0.vy, 10, 1e-9) && near($0.vz, 0, 1e-9) })
        let up = simulation((EmitterConfiguration(),
                             [cell { $0.birthRate = 10; $0.lifetime = 5; $0.velocity = 10; $0.emissionLatitude = Double.pi / 2 }]))
        #expect(up.particles(at: 1).allSatisfy { near($0.vz, 10, 1e-9) })
        let cone = simulation((configuration { $0.seed = 5 },
                               [cell { $0.birthRate = 500; $0.lifetime = 5; $0.velocity = 1; $0.emissionRange = Double.pi / 2 }]))
        let angles = cone.particles(at: 1).map { acos(max(-1, min(1, $0.vx))) }
        #expect(angles.count == 500 && angles.allSatisfy { $0 <= Double.pi / 4 + 1e-9 })
        #expect(angles.max()! > Double.pi / 4 * 0.95)
    }

    @Test func emitterShapesS7_4() {
        let centre = (x: 100.0, y: 50.0, z: 5.0)
        func distance(_ p: ParticleState) -> Double {
            ((p.x - centre.x) * (p.x - centre.x) + (p.y - centre.y) * (p.y - centre.y) + (p.z - centre.z) * (p.z - centre.z)).squareRoot()
        }
        let line = still(.line, .volume).particles(at: 1)
        #expect(line.count == 500 && line.allSatisfy { $0.y == 50 && $0.z == 5 && $0.x >= 50 && $0.x <= 150 })
        #expect(line.map(\.x).max()! - line.map(\.x).min()! > 95)
        let ends = still(.line, .points).particles(at: 1)
        #expect(ends.allSatisfy { $0.x == 50 || $0.x == 150 })
        // Circles and spheres: radius emitterSize.width (kCAEmitterLayerCircle).
        let sphere = still(.sphere, .volume).particles(at: 1)
        #expect(sphere.allSatisfy { distance($0) <= 100 + 1e-9 } && sphere.contains { distance($0) < 60 })
        let shell = still(.sphere, .surface).particles(at: 1)
        #expect(shell.allSatisfy { near(distance($0), 100, 1e-9) })
        let ring = still(.circle, .outline).particles(at: 1)
        #expect(ring.allSatisfy { $0.z == 5 && near(distance($0), 100, 1e-9) })
        let disk = still(.circle, .surface).particles(at: 1)
        #expect(disk.allSatisfy { $0.z == 5 && distance($0) <= 100 + 1e-9 } && disk.contains { distance($0) < 60 })
        let rect = still(.rectangle, .surface).particles(at: 1)
        #expect(rect.allSatisfy { $0.x >= 50 && $0.x <= 150 && $0.y >= 30 && $0.y <= 70 && $0.z == 5 })
        let outline = still(.rectangle, .outline).particles(at: 1)
        #expect(outline.allSatisfy { near($0.x, 50, 1e-9) || near($0.x, 150, 1e-9) || near($0.y, 30, 1e-9) || near($0.y, 70, 1e-9) })
        let box = still(.cuboid, .volume).particles(at: 1)
        #expect(box.allSatisfy { $0.z >= -5 && $0.z <= 15 } && box.contains { $0.z < 0 } && box.contains { $0.z > 10 })
        let corners = still(.cuboid, .points).particles(at: 1)
        #expect(corners.allSatisfy { ($0.x == 50 || $0.x == 150) && ($0.y == 30 || $0.y == 70) && ($0.z == -5 || $0.z == 15) })
        let point = still(.point, .volume).particles(at: 1)
        #expect(point.allSatisfy { $0.x == 100 && $0.y == 50 && $0.z == 5 })
    }

    @Test func circleOutlineEmitsOutwardS7_4() {
        let config = configuration { $0.emitterShape = .circle; $0.emitterMode = .outline; $0.emitterSize = Size(width: 40, height: 0) }
        let sim = simulation((config, [cell { $0.birthRate = 100; $0.lifetime = 5; $0.velocity = 10 }]))
        // velocity along the radius, at the emission point
        #expect(sim.particles(at: 1).allSatisfy { p in
            let age = 1 - p.birthTime
            let bx = p.x - p.vx * age, by = p.y - p.vy * age
            return near(bx * p.vy - by * p.vx, 0, 1e-6) && bx * p.vx + by * p.vy > 0
        })
    }

    @Test func fireworksNestS7_4() {
        let sim = simulation(fireworks())
        // Rockets at 1, 2, ...; the first one's burst at 2.0 (rocket age 1),
        // where the rocket is then.
        let at2 = sim.particles(at: 2)
        let rocket = at2.first { sim.name(ofCell: $0.cell) == "rocket" && $0.birthTime == 1 }!
        let burst = at2.first { sim.name(ofCell: $0.cell) == "burst" }!
        #expect(burst.birthTime == 2 && burst.x == rocket.x && burst.y == rocket.y && burst.z == rocket.z)
        // The burst's colour is its rocket's; sparks take the burst's.
        #expect(burst.color == rocket.color)
        let firstSpark = sim.particles(at: 2 + 1.0 / 400)
        let spark = firstSpark.first { sim.name(ofCell: $0.cell) == "spark" }!
        let burstNow = firstSpark.first { sim.name(ofCell: $0.cell) == "burst" }!
        #expect(spark.birthTime == 2 + 1.0 / 400 && spark.x == burstNow.x && spark.y == burstNow.y)
        #expect(near(spark.color.r, burstNow.color.r, 1e-6) && near(spark.color.b, burstNow.color.b, 1e-6))
        // ... and their scale (CAEmitterCell.emitterCells: "the scale and
        // color of fireworkCell are inherited by trailCell"), in the
        // padding of the born state, which stays 112 bytes.
        #expect(near(burstNow.scale, 2.5, 1e-6) && near(spark.scale, 2.5 * 0.1, 1e-6))
        #expect(MemoryLayout<Particle>.stride == 112)
        // One burst per rocket (birthRate 1 within a 1.02 s life) and
        // floor(400 * 0.35) sparks per burst, all alive at 2.5.
        let at25 = sim.particles(at: 2.5)
        #expect(at25.filter { sim.name(ofCell: $0.cell) == "burst" }.isEmpty)
        #expect(at25.filter { sim.name(ofCell: $0.cell) == "spark" }.count == 139)
        #expect(at25.filter { sim.name(ofCell: $0.cell) == "rocket" }.count == 1)
        // Sparks of different rockets have different colours.
        let at35 = sim.particles(at: 3.5).filter { sim.name(ofCell: $0.cell) == "spark" }
        let colours = Set(at35.map { Int($0.birthTime) })
        #expect(colours == [2, 3])
        let rockets = sim.particles(at: 2.01).filter { sim.name(ofCell: $0.cell) == "rocket" }
        #expect(rockets.count == 2 && rockets[0].color != rockets[1].color)
        #expect(sim.configuration(at: 3).renderMode == .additive)
    }

    @Test func cellTimingWindowS4_1() {
        let sim = simulation((EmitterConfiguration(),
                              [cell { $0.birthRate = 10; $0.lifetime = 100; $0.timing.beginTime = 1; $0.timing.duration = 2 }]))
        let p = sim.particles(at: 10)
        #expect(p.count == 19 && p.allSatisfy { $0.birthTime > 1 && $0.birthTime < 3 })
        let fast = simulation((EmitterConfiguration(),
                               [cell { $0.birthRate = 10; $0.lifetime = 100; $0.timing.speed = 2 }]))
        #expect(fast.particles(at: 1).count == 20)
        // A change at the start instant replaces the timing the cell began with.
        let (config, cells) = snow()
        let late = simulation((config, cells))
        cells[0].attributes.timing.beginTime = 2
        try! late.update(configuration: config, cells: cells.map(\.snapshot), at: 0)
        #expect(late.particles(at: 3).count == 20)
        let disabled = simulation((EmitterConfiguration(), [cell { $0.birthRate = 10; $0.lifetime = 100; $0.enabled = false }]))
        #expect(disabled.particles(at: 1).isEmpty)
    }

    @Test func renderModesOrderS7_4() {
        var (config, cells) = snow()
        config.renderMode = .oldestLast
        let newestFirst = simulation((config, cells)).particles(at: 3)
        let oldestFirst = simulation(snow()).particles(at: 3)
        #expect(newestFirst == oldestFirst.reversed())
        #expect(zip(oldestFirst, oldestFirst.dropFirst()).allSatisfy { $0.birthTime <= $1.birthTime })
        config.renderMode = .backToFront
        cells[0].attributes.emissionRange = Double.pi
        let byDepth = simulation((config, cells)).particles(at: 3)
        #expect(zip(byDepth, byDepth.dropFirst()).allSatisfy { $0.z <= $1.z } && byDepth.contains { $0.z != 0 })
    }
}
