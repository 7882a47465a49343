/// The plain values of an emitter cell (S7.4), with Core Animation's
/// defaults (CAEmitterCell.h): birthRate, lifetime and every range, speed,
/// velocity and acceleration 0; scale 1; colour opaque white; contentsRect
/// the unit rect; enabled. Random attributes take a mean M and a range R and
/// are uniform in [M - R/2, M + R/2], as CAEmitterLayer.h says of `seed`.
public struct EmitterCellAttributes: Equatable, Sendable {
    public var birthRate = 0.0
    public var lifetime = 0.0
    public var lifetimeRange = 0.0
    /// Angle from the xy plane toward +z (radians).
    public var emissionLatitude = 0.0
    /// Angle in the xy plane from +x, clockwise on screen (S1.0).
    public var emissionLongitude = 0.0
    /// Full angle of the cone around the emission direction.
    public var emissionRange = 0.0
    public var velocity = 0.0
    public var velocityRange = 0.0
    public var xAcceleration = 0.0
    public var yAcceleration = 0.0
    public var zAcceleration = 0.0
    public var scale = 1.0
    public var scaleRange = 0.0
    public var scaleSpeed = 0.0
    /// Radians per second.
    public var spin = 0.0
    public var spinRange = 0.0
    public var color = Color(r: 1, g: 1, b: 1, a: 1)
    public var redRange = 0.0, greenRange = 0.0, blueRange = 0.0, alphaRange = 0.0
    /// Change per second of each colour component, clamped to 0...1.
    public var redSpeed = 0.0, greenSpeed = 0.0, blueSpeed = 0.0, alphaSpeed = 0.0
    public var contentsRect = Rect.unit
    /// Pixels of the contents per point of a particle at scale 1
    /// (CAEmitterCell.contentsScale: a 2x image drawn at its point size).
    public var contentsScale = 1.0
    /// As a layer's (CALayer.magnificationFilter, minificationFilter and its
    /// bias), for the particles' contents.
    public var magnificationFilter = ContentsFilter.linear
    public var minificationFilter = ContentsFilter.linear
    public var minificationFilterBias = 0.0
    public var enabled = true
    /// CAMediaTiming on a cell: when it emits, relative to its emitter (the
    /// layer, or the parent particle's birth). A duration of 0 means forever.
    public var timing = TimingState()

    public init() {}
}

/// An emitter cell (CAEmitterCell): a kind of particle and how it is made.
/// Cells are model objects; the render side works on `EmitterCellSnapshot`s
/// taken when a layer commits, so a later change never reaches particles
/// already born (Core Animation: multipliers and cell attributes "only
/// affect newly created particles").
public final class EmitterCell: Object, @unchecked Sendable {
    public var attributes = EmitterCellAttributes()
    public var name: String?
    /// Retained by the cell.
    public var contents: Image?
    /// Sub-cells: each particle of this cell emits them (CAEmitterCell.h:
    /// "each particle emitted by the cell will act as an emitter for each
    /// of the cell's sub-cells").
    public private(set) var emitterCells: [EmitterCell] = []

    public init() {
        super.init(kind: .emitterCell)
    }

    /// A chain grown from below (a sub-cell given sub-cells later) can be
    /// any number of levels deep, and released recursively (each cell's
    /// array releasing the next) 30,000 levels overflowed the stack (S8.1):
    /// the cells this release frees give up their sub-cells here, in a loop.
    deinit {
        var pending = emitterCells
        emitterCells = []
        while var cell = pending.popLast() {
            guard isKnownUniquelyReferenced(&cell) else { continue }
            pending.append(contentsOf: cell.emitterCells)
            cell.emitterCells = []
        }
    }

    /// A cell tree (an emitter layer's cells and theirs) is at most this
    /// many levels deep, and holds at most this many cells counted as a
    /// tree (a cell reached twice counts twice: each commit copies it
    /// twice). Copying, committing and simulating a tree recurse once a
    /// level and visit every path: cells nested 10,000 deep crashed the
    /// commit (a stack overflow), and a cell shared by both sub-cells of
    /// its parent, 30 levels down, made 2^30 copies (S8.1). Real scenes
    /// (the fireworks: rocket, burst, spark) are a few levels and cells.
    public static let maximumDepth = 16
    public static let maximumTreeCells = 1024

    /// A deep copy: sub-cells are copied too, the contents image is shared
    /// (images are immutable). Within the limits above: deeper levels and
    /// cells past the count are left out (the setters refuse such trees;
    /// one can still grow from below, a sub-cell given sub-cells later).
    public func copy() -> EmitterCell { EmitterCell.copies(of: [self])[0] }

    /// Deep copies of `cells`, one tree within the limits.
    public static func copies(of cells: [EmitterCell]) -> [EmitterCell] {
        var budget = maximumTreeCells
        return within(cells, level: 1, budget: &budget) { cell, subcells in
            let c = EmitterCell()
            c.attributes = cell.attributes
            c.name = cell.name
            c.contents = cell.contents
            c.emitterCells = subcells
            return c
        }
    }

    /// `make` of each cell of the tree under `cells` (given its sub-cells'
    /// results), depth first, the tree cut to the limits above.
    private static func within<T>(_ cells: [EmitterCell], level: Int, budget: inout Int,
                                  _ make: (EmitterCell, [T]) -> T) -> [T] {
        guard level <= maximumDepth else { return [] }
        var out: [T] = []
        for cell in cells {
            guard budget > 0 else { break }
            budget -= 1
            let subcells = within(cell.emitterCells, level: level + 1, budget: &budget, make)
            out.append(make(cell, subcells))
        }
        return out
    }

    /// Replaces the sub-cells. A cell cannot contain itself at any depth,
    /// and its tree stays within the limits above.
    public func setEmitterCells(_ cells: [EmitterCell], argument: String = "cells") throws(LayerKitError) {
        for (i, cell) in cells.enumerated() where cell === self || cell.contains(self) {
            throw LayerKitError(.hierarchy, "\(argument)[\(i)]: the cell would contain itself (a cycle of emitterCells)")
        }
        try EmitterCell.checkTree(cells, levelsAbove: 1, argument: argument)
        emitterCells = cells
    }

    /// Refuses `cells` as a tree under `levelsAbove` levels (the cell they
    /// go into, or 0 for a layer's) past the limits above.
    static func checkTree(_ cells: [EmitterCell], levelsAbove: Int, argument: String) throws(LayerKitError) {
        var levels = 0, count = levelsAbove
        var pending: [(EmitterCell, Int)] = cells.map { ($0, levelsAbove + 1) }
        while let (cell, level) = pending.popLast() {
            count += 1
            levels = max(levels, level)
            if levels > maximumDepth {
                throw .invalid("\(argument): the cell tree would be more than \(maximumDepth) levels deep")
            }
            if count > maximumTreeCells {
                throw .invalid("\(argument): the cell tree would hold more than \(maximumTreeCells) cells (a cell reached twice counts twice)")
            }
            for child in cell.emitterCells { pending.append((child, level + 1)) }
        }
    }

    /// True if `cell` is among this cell's sub-cells at any depth. Each
    /// cell looked at once (shared sub-cells would make paths exponential).
    public func contains(_ cell: EmitterCell) -> Bool {
        var seen = Set<ObjectIdentifier>()
        var pending = emitterCells
        while let next = pending.popLast() {
            if next === cell { return true }
            guard seen.insert(ObjectIdentifier(next)).inserted else { continue }
            pending.append(contentsOf: next.emitterCells)
        }
        return false
    }

    /// The first sub-cell with this name.
    public func subcell(named name: Substring) -> EmitterCell? {
        emitterCells.first { $0.name.map { $0[...] == name } ?? false }
    }

    /// What the render side keeps.
    public var snapshot: EmitterCellSnapshot { EmitterCell.snapshots(of: [self])[0] }

    /// The render side's copies of `cells`, one tree within the limits.
    public static func snapshots(of cells: [EmitterCell]) -> [EmitterCellSnapshot] {
        var budget = maximumTreeCells
        return within(cells, level: 1, budget: &budget) { cell, subcells in
            EmitterCellSnapshot(attributes: cell.attributes, name: cell.name, contents: cell.contents,
                                emitterCells: subcells)
        }
    }
}

/// An immutable copy of a cell tree, as committed (render side).
public struct EmitterCellSnapshot: @unchecked Sendable {
    public var attributes: EmitterCellAttributes
    public var name: String?
    public var contents: Image?
    public var emitterCells: [EmitterCellSnapshot]

    public init(attributes: EmitterCellAttributes = EmitterCellAttributes(), name: String? = nil,
                contents: Image? = nil, emitterCells: [EmitterCellSnapshot] = []) {
        self.attributes = attributes
        self.name = name
        self.contents = contents
        self.emitterCells = emitterCells
    }
}
