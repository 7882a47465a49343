/// The render side of an emitter layer (S7.4): its simulation, kept by the
/// layer's render node. Commits hand it copies of the cells; each frame it
/// is brought up to the presented values (animated layer properties and
/// cell key paths) before the particles are read, so an animation on
/// "emitterCells.snow.birthRate" changes what is born from that frame on.
final class EmitterRender {
    private(set) var simulation: EmitterSimulation?
    /// Render-owned deep copies of the committed cells (model cells may
    /// change on another thread).
    private var cells: [EmitterCell] = []
    private var committed: [EmitterCellSnapshot] = []
    /// The layer's committed emitter properties, to notice a commit that
    /// changes them.
    private var committedConfiguration: EmitterConfiguration?
    /// The values the simulation has, to notice presented changes.
    private var applied: (configuration: EmitterConfiguration, values: [EmitterState.CellValue])?
    /// A commit changed the cells or the layer's emitter properties: the
    /// change applies from this local time (or from the last frame drawn,
    /// if later: a manual clock's frames run ahead of the commits' clock).
    /// Applying it from the next frame instead made the particles born in
    /// between depend on which frames were drawn (S7.4).
    private var pendingCommit: Double?
    private var lastFrame = -Double.infinity

    /// Takes the committed cells and emitter properties (model lock held);
    /// a commit that leaves both as they were changes nothing.
    func commit(cells model: [EmitterCell], configuration: EmitterConfiguration, at localTime: Double) {
        let snapshots = EmitterCell.snapshots(of: model)
        let sameCells = simulation != nil && snapshots.count == committed.count
            && zip(snapshots, committed).allSatisfy { $0.isSame(as: $1) }
        let sameConfiguration = configuration == committedConfiguration
        if sameCells && sameConfiguration { return }
        if !sameCells {
            cells = EmitterCell.copies(of: model)
            committed = snapshots
        }
        committedConfiguration = configuration
        pendingCommit = localTime
    }

    /// Animated emitter values are read on a grid of local time, every
    /// sampleInterval from 0, not at the frames: so the births between two
    /// frames take the values of their own moment (to within the interval),
    /// and the particles do not depend on which frames were drawn (S7.4).
    static let sampleInterval = 1.0 / 120
    /// At most this many samples a frame (a jump of over 800 s with an
    /// animation running and particles that never die): older births then
    /// take the values before them.
    static let maximumSamples = 100_000
    /// The latest local time a change was applied from.
    private var lastApplied = -Double.infinity

    /// The simulation for the presented state at local time `t`, updated
    /// first when what it was given last differs. `presented` gives the
    /// presented state at any local time when animations run on the layer:
    /// their values are then sampled on the grid between the frames.
    func simulation(for state: EmitterState, at t: Double,
                    presented: ((Double) -> EmitterState)? = nil) -> EmitterSimulation? {
        defer { lastFrame = t }
        let changed = pendingCommit != nil || applied?.configuration != state.configuration
            || applied?.values != state.cellValues
        // A commit (or the first frame) applies at once; with animations, what
        // they present then. Other presented changes come from the grid below.
        if changed && (presented == nil || pendingCommit != nil || simulation == nil) {
            var at = min(t, max(pendingCommit ?? t, lastFrame))
            // A frame has drawn the particles born through its time: a change
            // applied from that instant changed the one born exactly then (a
            // whole-number rate at a whole-number time) after it was drawn.
            if at == lastFrame { at = at.nextUp }
            apply(presented.map { $0(at) } ?? state, at: at)
        }
        if let presented, let simulation, t > lastApplied {
            let h = EmitterRender.sampleInterval
            // Only births after t - span can still be alive.
            // (never below the simulation's start, a finite time)
            let from = max(lastApplied, simulation.start, t - simulation.span - EmitterSimulation.historyMargin,
                           t - Double(EmitterRender.maximumSamples) * h)
            var k = (from / h).rounded(.down) + 1
            var taken = 0
            while k * h <= t && taken <= EmitterRender.maximumSamples {
                let g = k * h, next = k + 1
                taken += 1
                if g > lastApplied {
                    let sampled = presented(g)
                    if sampled.configuration != applied?.configuration || sampled.cellValues != applied?.values {
                        apply(sampled, at: g)
                    }
                }
                // Past 2^53 samples k + 1 is k: times that far out are not
                // told apart finer (at local time 1e17 the loop never ended).
                guard next > k else { break }
                k = next
            }
        }
        return simulation
    }

    /// Gives the simulation `state` from local time `at` (creating it the
    /// first time).
    private func apply(_ state: EmitterState, at: Double) {
        let snapshots = state.cellValues.isEmpty ? committed : EmitterCellPaths.presented(cells, state.cellValues)
        if let simulation {
            let from = max(at, simulation.start)
            try? simulation.update(configuration: state.configuration, cells: snapshots, at: from)
            lastApplied = max(lastApplied, from)
        } else {
            // CAEmitterLayer.h: "The simulation starts at layer's beginTime"
            // (local time 0), or at the first commit when that is later.
            simulation = try? EmitterSimulation(start: max(0, at), configuration: state.configuration, cells: snapshots)
            lastApplied = max(0, at)
        }
        applied = (state.configuration, state.cellValues)
        pendingCommit = nil
    }
}

extension EmitterCellSnapshot {
    /// Same values, same contents image, same sub-cells.
    func isSame(as other: EmitterCellSnapshot) -> Bool {
        attributes == other.attributes && name == other.name && contents === other.contents
            && emitterCells.count == other.emitterCells.count
            && zip(emitterCells, other.emitterCells).allSatisfy { $0.isSame(as: $1) }
    }
}
