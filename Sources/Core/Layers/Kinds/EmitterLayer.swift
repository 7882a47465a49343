/// CAEmitterLayer's properties (S7.4): the layer-level configuration, the
/// top-level cells, and the presentation values of animated cell key paths.
public struct EmitterState: KindState {
    public static var kind: LayerKind { .emitter }
    public var configuration = EmitterConfiguration()
    /// Model objects, retained (as `lk_emitter_cell_set_cells`); the render
    /// side works on their snapshots taken at each commit.
    public var cells: [EmitterCell] = []
    /// Bumped when a cell changes through a key path on the layer, so that
    /// the state compares unequal and the layer commits.
    public var cellRevision: UInt64 = 0
    /// Animated cell key paths ("emitterCells.snow.birthRate") as an
    /// animation presents them: written by the evaluator into presentation
    /// states only, applied over the committed cells' snapshots.
    public var cellValues: [CellValue] = []

    public struct CellValue: Equatable, Sendable {
        public var keyPath: String
        public var value: Value
    }

    public init() {}

    public static func == (a: EmitterState, b: EmitterState) -> Bool {
        a.configuration == b.configuration && a.cellRevision == b.cellRevision && a.cellValues == b.cellValues
            && a.cells.count == b.cells.count && zip(a.cells, b.cells).allSatisfy { $0 === $1 }
    }

    /// seed as a number, for the property table (an integer in 0...2^32-1).
    var seedNumber: Double {
        get { Double(configuration.seed) }
        set { configuration.seed = UInt32(exactly: newValue) ?? 0 }
    }

    /// The cell at the end of a path of names, each the first cell with it.
    static func cell(at names: [String], in cells: [EmitterCell]) -> EmitterCell? {
        guard let first = names.first, var cell = cells.first(where: { $0.name == first }) else { return nil }
        for name in names.dropFirst() {
            guard let sub = cell.subcell(named: name[...]) else { return nil }
            cell = sub
        }
        return cell
    }
}

extension EmitterShape: NamedValue {}
extension EmitterMode: NamedValue {}
extension EmitterRenderMode: NamedValue {}

extension LayerState {
    public var emitter: EmitterState {
        get { kindState(EmitterState.self) }
        set { setKindState(newValue) }
    }
}

/// The emitter layer's rows of the property table. Position, z, size,
/// depth and the multipliers animate (CAEmitterLayer.h marks them
/// animatable); shape, mode, render mode, seed and preservesDepth switch.
public enum EmitterProperties {
    private static func row<T>(_ key: String, _ keyPath: WritableKeyPath<EmitterConfiguration, T>, animatable: Bool,
                               check: ((T, LayerState) throws(LayerKitError) -> T)? = nil) -> Property<T> {
        let base: WritableKeyPath<LayerState, EmitterState> = \.emitter
        return Property(key, base.appending(path: \.configuration).appending(path: keyPath), animatable: animatable,
                        effect: .appearance, kind: .emitter, check: check)
    }

    private static func nonNegative(_ key: String) -> (Double, LayerState) throws(LayerKitError) -> Double {
        { v, _ throws(LayerKitError) in
            guard v >= 0 else { throw .invalid("\(key): must not be negative (got \(v))") }
            return v
        }
    }

    public static let emitterPosition = row("emitterPosition", \.emitterPosition, animatable: true)
    public static let emitterZPosition = row("emitterZPosition", \.emitterZPosition, animatable: true)
    public static let emitterSize = row("emitterSize", \.emitterSize, animatable: true) { s, _ throws(LayerKitError) in
        guard s.width >= 0, s.height >= 0 else {
            throw .invalid("emitterSize: must not be negative (got \(s.width) x \(s.height))")
        }
        return s
    }
    public static let emitterDepth = row("emitterDepth", \.emitterDepth, animatable: true, check: nonNegative("emitterDepth"))
    public static let emitterShape = row("emitterShape", \.emitterShape, animatable: false)
    public static let emitterMode = row("emitterMode", \.emitterMode, animatable: false)
    public static let renderMode = row("renderMode", \.renderMode, animatable: false)
    public static let birthRate = row("birthRate", \.birthRate, animatable: true, check: nonNegative("birthRate"))
    public static let lifetime = row("lifetime", \.lifetime, animatable: true, check: nonNegative("lifetime"))
    public static let velocity = row("velocity", \.velocity, animatable: true)
    public static let scale = row("scale", \.scale, animatable: true)
    public static let spin = row("spin", \.spin, animatable: true)
    public static let preservesDepth = row("preservesDepth", \.preservesDepth, animatable: false)
    /// A whole number in 0...2^32-1, as CAEmitterLayer's unsigned int.
    public static let seed: Property<Double> = {
        let path: WritableKeyPath<LayerState, Double> = \LayerState.emitter.seedNumber
        return Property("seed", path, animatable: false, effect: .appearance, kind: .emitter) { v, _ throws(LayerKitError) in
            guard v >= 0, v <= Double(UInt32.max), v == v.rounded() else {
                throw .invalid("seed: expected a whole number in 0...4294967295, got \(v)")
            }
            return v
        }
    }()

    static let all: [AnyProperty] = [
        emitterPosition.erased, emitterZPosition.erased, emitterSize.erased, emitterDepth.erased, emitterShape.erased,
        emitterMode.erased, renderMode.erased, birthRate.erased, lifetime.erased, velocity.erased, scale.erased,
        spin.erased, seed.erased, preservesDepth.erased,
    ]
    static let byKey: [String: AnyProperty] = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })
}

/// Key paths into the layer's cells (S7.4): "emitterCells.NAME" repeated,
/// then a cell property, then parts of it ("emitterCells.rocket.
/// emitterCells.spark.birthRate", "emitterCells.snow.contentsRect.size.width").
/// Each such path is a row of its own: setting it changes the named cell
/// (validated by the cell's row) and commits the layer; an animation on it
/// writes the presentation value that the render side's simulation uses.
enum EmitterCellPaths {
    static func resolve(_ keyPath: String) -> (AnyProperty, [Substring])? {
        let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false)
        var names: [String] = []
        var i = 0
        while i < parts.count, parts[i] == "emitterCells" {
            guard i + 1 < parts.count, !parts[i + 1].isEmpty else { return nil }
            names.append(String(parts[i + 1]))
            i += 2
        }
        guard !names.isEmpty, i < parts.count, let cellProperty = EmitterCellProperties.named(String(parts[i])) else {
            return nil
        }
        let key = parts[0...i].joined(separator: ".")
        return (row(key, names: names, cellProperty), Array(parts[(i + 1)...]))
    }

    static func missing(_ key: String, _ names: [String]) -> LayerKitError {
        LayerKitError(.unknownKeyPath,
                      "key_path: \"\(key)\": the layer has no cell at \"\(names.joined(separator: "."))\" (cells are found by name)")
    }

    /// Errors for a path whose cells do not exist (reading one gives none otherwise).
    static func check(_ property: AnyProperty, in state: LayerState) throws(LayerKitError) {
        guard property.kind == .emitter, property.key.hasPrefix("emitterCells."),
              let names = names(in: property.key) else { return }
        if EmitterState.cell(at: names, in: state.emitter.cells) == nil { throw missing(property.key, names) }
    }

    private static func names(in key: String) -> [String]? {
        let parts = key.split(separator: ".")
        var names: [String] = []
        var i = 0
        while i + 1 < parts.count, parts[i] == "emitterCells" { names.append(String(parts[i + 1])); i += 2 }
        return names.isEmpty ? nil : names
    }

    private static func row(_ key: String, names: [String], _ cellProperty: EmitterCellProperty) -> AnyProperty {
        let animatable = [ValueType.number, .color, .rect].contains(cellProperty.type)
        return AnyProperty(
            key: key, type: cellProperty.type, animatable: animatable, effect: .appearance, kind: .emitter,
            read: { s in
                let e = s.pointee.emitter
                if let v = e.cellValues.first(where: { $0.keyPath == key }) { return v.value }
                guard let cell = EmitterState.cell(at: names, in: e.cells) else { return .none }
                return cellProperty.read(cell)
            },
            set: { (layer, value) throws(LayerKitError) in
                try layer.checkWritable()
                guard let cell = EmitterState.cell(at: names, in: layer.state.emitter.cells) else {
                    throw missing(key, names)
                }
                if cellProperty.read(cell) == value { return }
                try cellProperty.write(cell, value, key)
                layer.state.emitter.cellRevision &+= 1
                layer.changed()
            },
            setState: { state, value in
                guard value.type == cellProperty.type else { return false }
                var e = state.emitter
                if let i = e.cellValues.firstIndex(where: { $0.keyPath == key }) {
                    e.cellValues[i].value = value
                } else {
                    e.cellValues.append(EmitterState.CellValue(keyPath: key, value: value))
                }
                state.emitter = e
                return true
            })
    }

    /// The committed cells with the presented cell values applied: deep
    /// copies, so the model's cells are never touched (render side).
    static func presented(_ cells: [EmitterCell], _ values: [EmitterState.CellValue]) -> [EmitterCellSnapshot] {
        guard !values.isEmpty else { return EmitterCell.snapshots(of: cells) }
        let copies = EmitterCell.copies(of: cells)
        for v in values {
            guard let names = names(in: v.keyPath), let cell = EmitterState.cell(at: names, in: copies),
                  let last = v.keyPath.split(separator: ".").last,
                  let property = EmitterCellProperties.named(String(last)) else { continue }
            try? property.write(cell, v.value, v.keyPath)
        }
        return EmitterCell.snapshots(of: copies)
    }
}

extension Layer {
    /// The emitter layer's top-level cells (retained, not copied).
    public func setEmitterCells(_ cells: [EmitterCell]) throws(LayerKitError) {
        try checkWritable()
        try checkKind(.emitter, "emitterCells")
        try EmitterCell.checkTree(cells, levelsAbove: 0, argument: "cells")
        var e = state.emitter
        e.cells = cells
        e.cellRevision &+= 1
        state.emitter = e
        changed()
    }
}
