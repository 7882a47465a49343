/// One animation of a render node as each frame's evaluation reads it: its
/// timing and, for basic animations of whole number, point, size and rect
/// properties, its ends unboxed, stored inline in the node's array. A frame
/// then reads one contiguous buffer per node instead of chasing record →
/// animation → track objects scattered over the heap (two or three
/// dependent cache misses per animation, which were most of the time of a
/// frame of 10,000 animated layers). Built at each commit that publishes
/// the node (RenderTree.sync); the records stay the source of truth.
struct NodeTrack {
    enum Kind: UInt8 {
        /// Evaluated here, from the inline ends.
        case inline
        /// Through the record's typed track (springs, whole transforms):
        /// still writes only its own field.
        case field
        /// Through the Value path (keyframes, groups, key paths inside a
        /// property, transitions): needs a whole copy of the state.
        case general
    }

    /// Kept alive by the node's `animations`, which holds the same records.
    unowned(unsafe) let record: AnimationRecord
    let timing: TimingState
    let kind: Kind
    let removedOnCompletion: Bool
    let additive: Bool
    let cumulative: Bool
    /// The field's place in LayerState and its size in doubles (inline and field kinds).
    let offset: Int
    let lanes: Int
    /// Its address, compared without touching its reference count.
    let timingFunctionID: UnsafeRawPointer?
    /// A basic animation (its eased progress is the timing function's).
    let basic: Bool
    /// A field track's whole-transform track, read without the record and
    /// its animation (two objects, two cache misses a frame): kept alive by
    /// the record, as the record is by the node. Unmanaged: a frame calls
    /// it without touching its reference count (a retain of an object not
    /// yet in the cache waited for it before the prefetch could help).
    let transformTrack: Unmanaged<TransformTrack>?
    /// Which of from, to, by and previous are set (bits 0...3).
    let present: UInt8
    let from: SIMD4<Double>, to: SIMD4<Double>, by: SIMD4<Double>, previous: SIMD4<Double>
    /// The record's started / stopped flags seen true: they never turn back,
    /// so once seen the record need not be read again for them.
    var seenStarted = false
    var seenStopped = false

    init(_ record: AnimationRecord) {
        self.record = record
        let a = record.animation
        timing = a.timing
        removedOnCompletion = a.removedOnCompletion
        additive = a.additive
        cumulative = a.accumulates
        timingFunctionID = a.timingFunction.map { UnsafeRawPointer(Unmanaged.passUnretained($0).toOpaque()) }
        var ends = (SIMD4<Double>(), SIMD4<Double>(), SIMD4<Double>(), SIMD4<Double>())
        var present: UInt8 = 0
        var kind = Kind.general
        var offset = 0, lanes = 0
        basic = a.animationKind == .basic
        if case .transform(let t) = record.fastTrack { transformTrack = .passUnretained(t) } else { transformTrack = nil }
        if let fast = record.fastTrack {
            (offset, lanes) = (fast.offset, fast.lanes)
            kind = .field
            if a.animationKind == .basic, let unboxed = fast.unboxedEnds {
                kind = .inline
                present = unboxed.present
                ends = (unboxed.from, unboxed.to, unboxed.by, unboxed.previous)
            }
        }
        (self.kind, self.offset, self.lanes, self.present) = (kind, offset, lanes, present)
        (from, to, by, previous) = ends
    }

    /// S4.8 for one lane group, as LaneTrack.apply does it; `eased` is the
    /// progress through the timing function (`eased(_:)`).
    @inline(__always)
    func applyInline(eased: Double, iteration: Int, to state: UnsafeMutableRawPointer,
                     model: UnsafeRawPointer) {
        applyInline(eased: eased, iteration: iteration,
                    field: state.advanced(by: offset).assumingMemoryBound(to: Double.self),
                    modelField: model.advanced(by: offset).assumingMemoryBound(to: Double.self))
    }

    /// The progress through the track's timing function.
    @inline(__always)
    func eased(_ progress: Double) -> Double {
        guard let id = timingFunctionID else { return progress }
        // Without a retain and release of the curve at each call.
        return Unmanaged<TimingFunction>.fromOpaque(id)._withUnsafeGuaranteedRef { $0.evaluate(progress) }
    }

    /// The same on the field alone (`lanes` doubles), wherever it is.
    @inline(__always)
    func applyInline(eased: Double, iteration: Int, field: UnsafeMutablePointer<Double>,
                     modelField: UnsafePointer<Double>) {
        LaneMath.apply(present: present, from: from, to: to, by: by, previous: previous, lanes: lanes,
                       additive: additive, cumulative: cumulative, iteration: iteration,
                       eased: eased, field: field, modelField: modelField)
    }
}

extension NodeTrack {
    /// Where its animation shows at the layer's local time, without events:
    /// nil when it has no effect (S4.4, S4.5).
    func presentedProgress(layerTime: Double) -> (progress: Double, iteration: Int)? {
        let evaluation = TimingModel.evaluate(timing, parentTime: layerTime)
        if evaluation.phase == .after && removedOnCompletion { return nil }
        return evaluation.progress.map { ($0, evaluation.iteration) }
    }
}

extension FastTrack {
    /// Where the track's field lives in LayerState, and its size in doubles.
    var offset: Int {
        switch self {
        case .lanes(let t): t.offset
        case .transform(let t): t.offset
        case .transformPart(let t): t.offset
        }
    }

    var lanes: Int {
        switch self {
        case .lanes(let t): t.lanes
        case .transform, .transformPart: 16
        }
    }

    /// The ends as lanes, with which are set (bits: from 1, to 2, by 4,
    /// previous 8); nil for transforms, interpolated by decomposition.
    var unboxedEnds: (from: SIMD4<Double>, to: SIMD4<Double>, by: SIMD4<Double>, previous: SIMD4<Double>,
                      present: UInt8)? {
        guard case .lanes(let t) = self else { return nil }
        return (t.from, t.to, t.by, t.previous, t.present)
    }
}

extension AnimationEvaluator {
    /// The per-frame path of a node whose animations all write only their
    /// own fields (inline and field tracks): the same rules as
    /// `apply(_:to:layerTime:model:events:)`, read from the node's tracks.
    /// `state` holds the model's values in every field the tracks write.
    static func apply(tracks: UnsafeMutableBufferPointer<NodeTrack>, to state: UnsafeMutablePointer<LayerState>,
                      layerTime: Double, model: UnsafePointer<LayerState>,
                      events: UnsafeMutablePointer<[Event]>?) -> Double {
        guard let first = tracks.baseAddress else { return .infinity }
        var next = Double.infinity
        // A layer's implicit animations from one transaction share their
        // timing and curve: each is evaluated once, not once per track.
        var evaluation = TimingEvaluation(phase: .before, progress: nil, iteration: 0, activeDuration: 0)
        var curveFunction: UnsafeRawPointer?, curveProgress = Double.nan, curveEased = 0.0
        for i in 0..<tracks.count {
            // Through a pointer: a track is a few hundred bytes, and
            // `tracks[i].x` may copy it whole.
            let track = first + i
            if i == 0 || track.pointee.timing != (track - 1).pointee.timing {
                let timing = track.pointee.timing
                evaluation = TimingModel.evaluate(timing, parentTime: layerTime)
            }
            next = min(next, evaluation.nextChange(track.pointee.timing))
            if let events {
                if !track.pointee.seenStarted && evaluation.phase != .before {
                    let record = track.pointee.record
                    if !record.started && !record.stopped {   // (see AnimationEvaluator.note)
                        record.started = true
                        events.pointee.append(.started(record))
                    }
                    track.pointee.seenStarted = true
                }
                if evaluation.phase == .after && !track.pointee.seenStopped {
                    let record = track.pointee.record
                    if !record.stopped {
                        record.stopped = true
                        events.pointee.append(.stopped(record))
                    }
                    track.pointee.seenStopped = true
                }
            }
            // A finished animation that is removed on completion no longer
            // shows (S4.5), noted or not (AnimationEvaluator.apply).
            if evaluation.phase == .after && track.pointee.removedOnCompletion { continue }
            guard let progress = evaluation.progress else { continue }
            let kind = track.pointee.kind
            if kind == .general { continue } // not reached: such nodes take the whole-copy path
            let basic = kind == .inline || track.pointee.basic
            var eased: Double?
            if basic {
                if curveFunction == track.pointee.timingFunctionID && curveProgress == progress {
                    eased = curveEased
                } else {
                    let e = track.pointee.eased(progress)
                    (curveFunction, curveProgress, curveEased) = (track.pointee.timingFunctionID, progress, e)
                    eased = e
                }
            }
            if kind == .inline {
                // Field by field through the pointer: a method call on
                // `track.pointee` copied the whole track first.
                let offset = track.pointee.offset
                LaneMath.apply(present: track.pointee.present, from: track.pointee.from, to: track.pointee.to,
                               by: track.pointee.by, previous: track.pointee.previous, lanes: track.pointee.lanes,
                               additive: track.pointee.additive, cumulative: track.pointee.cumulative,
                               iteration: evaluation.iteration, eased: eased!,
                               field: UnsafeMutableRawPointer(state).advanced(by: offset).assumingMemoryBound(to: Double.self),
                               modelField: UnsafeRawPointer(model).advanced(by: offset).assumingMemoryBound(to: Double.self))
            } else if let eased, let transform = track.pointee.transformTrack {
                transform._withUnsafeGuaranteedRef { $0.apply(eased: eased, to: state, model: model) }
            } else {
                let record = track.pointee.record
                record.fastTrack?.apply(record.animation, progress: progress, iteration: evaluation.iteration,
                                        to: state, model: model, eased: eased)
            }
        }
        return next
    }
}
