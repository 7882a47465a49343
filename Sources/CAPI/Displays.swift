import CLayerKit
import LayerKitCore

// Displays with a manual clock (S5 arrives with the render thread).

@c @implementation public func lk_display_open(_ options: UnsafePointer<lk_display_options>?) -> OpaquePointer? {
    create {
        var o = DisplayOptions()
        if let options {
            let c = options.pointee
            guard c.struct_size >= UInt32(MemoryLayout<lk_display_options>.size) else {
                throw LayerKitError(.invalidArgument,
                    "options->struct_size: \(c.struct_size) is less than sizeof(lk_display_options) = \(MemoryLayout<lk_display_options>.size)")
            }
            o.backend = c.backend == nil ? nil : try string(c.backend, "options->backend")
            o.device = c.device == nil ? nil : try string(c.device, "options->device")
            o.connector = c.connector == nil ? nil : try string(c.connector, "options->connector")
            o.width = Int(c.width)
            o.height = Int(c.height)
            o.rotation = Int(c.rotation)
            o.manualClock = c.manual_clock
        }
        return try Display(options: o)
    }
}

@c @implementation public func lk_display_get_backend_name(_ d: OpaquePointer?) -> UnsafePointer<CChar>? {
    read(nil) {
        let target = try display(d)
        return CStringCache.shared.pointer(for: target.backendName, owner: target, key: "backend")
    }
}

@c @implementation public func lk_display_get_size(_ d: OpaquePointer?) -> lk_size {
    read(Size.zero.lk) { try display(d).size.lk }
}

@c @implementation public func lk_display_get_refresh_rate(_ d: OpaquePointer?) -> Double {
    read(0) { try display(d).refreshRate }
}

@c @implementation public func lk_display_set_root_layer(_ d: OpaquePointer?, _ root: OpaquePointer?) -> lk_status {
    run {
        let target = try display(d)
        try target.setRoot(try optionalLayer(root, "root"))
    }
}

@c @implementation public func lk_display_get_root_layer(_ d: OpaquePointer?) -> OpaquePointer? {
    read(nil) { borrowed(try display(d).root) }
}

@c @implementation public func lk_display_render_frame_at(_ d: OpaquePointer?, _ mediaTime: Double) -> lk_status {
    run { try display(d).renderFrame(at: mediaTime) }
}

@c @implementation public func lk_display_read_pixels(_ d: OpaquePointer?, _ rgba8: UnsafeMutableRawPointer?, _ stride: Int) -> lk_status {
    run {
        let target = try display(d)
        guard let rgba8 else { throw LayerKitError(.invalidArgument, "rgba8: NULL") }
        try target.readPixels(into: rgba8, stride: stride)
    }
}

@c @implementation public func lk_display_write_png(_ d: OpaquePointer?, _ fileName: UnsafePointer<CChar>?) -> lk_status {
    run {
        let target = try display(d)
        try target.writePNG(to: try string(fileName, "file_name"))
    }
}

@c @implementation public func lk_display_close(_ d: OpaquePointer?) {
    guard d != nil else { return }
    do {
        let target = try display(d)
        target.close()
        try HandleRegistry.shared.release(UnsafeRawPointer(d!))
    } catch {
        setLastError(layerKitError(error))
    }
}

@c @implementation public func lk_display_get_stats(_ d: OpaquePointer?, _ out: UnsafeMutablePointer<lk_display_stats>?) -> lk_status {
    run {
        let target = try display(d)
        guard let out else { throw LayerKitError(.invalidArgument, "out: NULL") }
        // Programs built against an older lk_display_stats pass its smaller
        // size and get the fields it has: the first (C-API.md's) ends with
        // render_seconds_total; last_frame_time, content_rasterizations and
        // frames_truncated came after, in that order.
        func fits(_ field: PartialKeyPath<lk_display_stats>, _ bytes: Int) -> Bool {
            out.pointee.struct_size >= UInt32(MemoryLayout<lk_display_stats>.offset(of: field)! + bytes)
        }
        guard fits(\lk_display_stats.render_seconds_total, 8) else {
            let firstSize = MemoryLayout<lk_display_stats>.offset(of: \lk_display_stats.render_seconds_total)! + 8
            throw LayerKitError(.invalidArgument,
                "out->struct_size: \(out.pointee.struct_size) is less than \(firstSize), the size of the first lk_display_stats")
        }
        out.pointee.frames_presented = target.framesPresented
        out.pointee.frames_missed = target.framesMissed
        out.pointee.render_seconds_total = target.renderSecondsTotal
        if fits(\lk_display_stats.last_frame_time, 8) { out.pointee.last_frame_time = target.lastFrameTime }
        if fits(\lk_display_stats.content_rasterizations, 8) {
            out.pointee.content_rasterizations = target.contentRasterizations
        }
        if fits(\lk_display_stats.frames_truncated, 8) { out.pointee.frames_truncated = target.framesTruncated }
    }
}

@c @implementation public func lk_display_set_event_callback(
    _ d: OpaquePointer?,
    _ callback: (@convention(c) (OpaquePointer?, lk_display_event, UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void)?,
    _ userData: UnsafeMutableRawPointer?, _ destroy: DestroyFunction?) -> lk_status {
    run {
        let target = try display(d)
        // checked before the handler exists: a failed call must not destroy user_data
        guard !target.isClosed else { throw LayerKitError(.state, "display: the display is closed") }
        guard let callback else {
            try target.setEventHandler(nil)
            return
        }
        let box = UserData(userData)
        let handler = DisplayEventHandler(callback: { display, event, detail in
            let code = lk_display_event(rawValue: event.rawValue)
            if let detail {
                detail.withCString { callback(borrowed(display), code, $0, box.pointer) }
            } else {
                callback(borrowed(display), code, nil, box.pointer)
            }
        }, destroy: destroy.map { fn in { fn(box.pointer) } })
        try target.setEventHandler(handler)
    }
}
