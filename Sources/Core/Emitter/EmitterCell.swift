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

    /// A deep copy: sub-cells are copied too, the contents image is shared
    /// (images are immutable).
    public func copy() -> EmitterCell {
        let c = EmitterCell()
        c.attributes = attributes
        c.name = name
        c.contents = contents
        c.emitterCells = emitterCells.map { $0.copy() }
        return c
    }

    /// Replaces the sub-cells. A cell cannot contain itself at any depth.
    public func setEmitterCells(_ cells: [EmitterCell], argument: String = "cells") throws(LayerKitError) {
        for (i, cell) in cells.enumerated() where cell === self || cell.contains(self) {
            throw LayerKitError(.hierarchy, "\(argument)[\(i)]: the cell would contain itself (a cycle of emitterCells)")
        }
        emitterCells = cells
    }

    /// True if `cell` is among this cell's sub-cells at any depth.
    public func contains(_ cell: EmitterCell) -> Bool {
        emitterCells.contains { $0 === cell || $0.contains(cell) }
    }

    /// The first sub-cell with this name.
    public func subcell(named name: Substring) -> EmitterCell? {
        emitterCells.first { $0.name.map { $0[...] == name } ?? false }
    }

    /// What the render side keeps.
    public var snapshot: EmitterCellSnapshot {
        EmitterCellSnapshot(attributes: attributes, name: name, contents: contents,
                            emitterCells: emitterCells.map(\.snapshot))
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
