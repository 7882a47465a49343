// lk-info: which render backends this LayerKit install finds, why any was
// rejected, and for each usable one its output and what it reports of the
// hardware and drivers (the plugin's describe(): EGL/GL vendor, renderer,
// version, extensions; DRM devices, connectors, planes).
//
//   lk-info [--no-open]     --no-open: only probe, do not open an output
//
// Plugins are searched where the library searches them ($LAYERKIT_PLUGIN_PATH,
// then layerkit/backends beside liblayerkit.so), and, because this tool is a
// program in <prefix>/bin rather than the library, in
// <prefix>/lib/layerkit/backends found from its own path. Exit status 0 when
// at least one backend opened (or, with --no-open, loaded).
import CLayerKit
import Glibc
import LayerKitCore

let probeOnly = CommandLine.arguments.contains("--no-open")
for argument in CommandLine.arguments.dropFirst() where argument != "--no-open" {
    print("usage: lk-info [--no-open]")
    exit(argument == "--help" || argument == "-h" ? 0 : 2)
}

/// <prefix>/lib/layerkit/backends for a program installed in <prefix>/bin.
func installedBackendDirectory() -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard n > 0 else { return nil }
    let exe = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard let slash = exe.lastIndex(of: "/") else { return nil }
    let bin = exe[..<slash]
    guard let up = bin.lastIndex(of: "/") else { return nil }
    return String(bin[..<up]) + "/lib/layerkit/backends"
}

func indented(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: true).map { "    " + $0 }.joined(separator: "\n")
}

func describe(_ table: UnsafePointer<lk_backend>, _ instance: OpaquePointer?) -> String? {
    guard let describe = table.pointee.describe else { return nil }
    var text = [CChar](repeating: 0, count: 8192)
    let ok = describe(instance, &text, text.count)
    let s = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return ok ? s : "describe failed: " + s
}

print("LayerKit \(LK_VERSION_STRING) backends")
let survey = PluginLoader.survey(libraryBackends: installedBackendDirectory())
print("search path: " + (survey.directories.isEmpty ? "(none)" : survey.directories.joined(separator: ":")))
if survey.entries.isEmpty { print("no plugin found (liblayerkit-<name>.so)") }

var usable = 0
for entry in survey.entries {
    print("")
    print("\(entry.name): \(entry.path)")
    guard let table = entry.table else {
        print("  rejected: \(entry.rejection ?? "unknown reason")")
        continue
    }
    print("  description: " + (table.pointee.description.map { String(cString: $0) } ?? "(none)"))
    if probeOnly {
        usable += 1
        print("  loaded (not opened: --no-open)")
        if let text = describe(table, nil) { print("  probe:\n" + indented(text)) }
        continue
    }
    var options = lk_backend_open_options()
    options.struct_size = UInt32(MemoryLayout<lk_backend_open_options>.size)
    var error = [CChar](repeating: 0, count: 512)
    // A host as the core's, its callbacks doing nothing, kept until the
    // instance closes: the ABI gives open one, and a plugin written to it
    // (calling host->log) crashed here on NULL.
    let host = UnsafeMutablePointer<lk_backend_host>.allocate(capacity: 1)
    host.initialize(to: lk_backend_host(
        abi_version: LK_BACKEND_ABI_VERSION, struct_size: UInt32(MemoryLayout<lk_backend_host>.size), host_data: nil,
        log: { _, _, _ in }, frame_done: { _, _, _ in }, output_changed: { _, _, _ in }))
    defer { host.deallocate() }
    guard let instance = table.pointee.open(host, &options, &error, error.count) else {
        let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        print("  unusable: cannot open: \(reason.isEmpty ? "no reason given" : reason)")
        if let text = describe(table, nil) { print("  probe:\n" + indented(text)) }
        continue
    }
    usable += 1
    var info = lk_backend_output_info()
    info.struct_size = UInt32(MemoryLayout<lk_backend_output_info>.size)
    if table.pointee.get_output(instance, &info) {
        let name = info.name.map { String(cString: $0) } ?? "?"
        print("  usable: output \"\(name)\" \(info.width)x\(info.height) at \(Int(info.refresh_rate.rounded())) Hz")
    } else {
        print("  usable, but it reports no output")
    }
    if let text = describe(table, instance) {
        print("  capabilities:\n" + indented(text))
    } else {
        print("  capabilities: (the plugin has no describe entry)")
    }
    table.pointee.close(instance)
}
print("")
// (With --no-open a plugin that loads is not known to be usable.)
print(probeOnly ? "\(usable) backend\(usable == 1 ? "" : "s") loaded of \(survey.entries.count) found (not opened: --no-open)"
                : "\(usable) usable backend\(usable == 1 ? "" : "s") of \(survey.entries.count) found")
exit(usable > 0 ? 0 : 1)
