import ArgumentParser
import Foundation
import HoorayEngine
import HoorayKit
import HoorayStorage
import HoorayTerminal
import HoorayText
import HoorayTransfer
import ZIPFoundation

// `hooray export --format csv`: the tables written into a folder or a zip, each moved in whole.
extension ExportCommand {
    /// Writes the CSV export's files into a folder, or into a zip when `output` ends in `.zip`.
    func writeCSV(_ files: [ExportDocument.CSVFile], to output: String, data: UserData) throws {
        let expanded = (output as NSString).expandingTildeInPath
        let given =
            expanded.hasPrefix("/")
            ? expanded : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(expanded)
        let isZip = given.lowercased().hasSuffix(".zip")
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: given, isDirectory: &isFolder)
        do {
            if isZip {
                do throws(ExportTarget.Refusal) {
                    let target = try ExportTarget(given)
                    defer { target.close() }
                    try target.write(try Self.zip(files))
                } catch {
                    warn(ExportTarget.message(error, given: given, fix: "give -o a new .zip file, or a folder"))
                    throw ExitCode(ExitStatus.failed.rawValue)
                }
            } else {
                if exists, !isFolder.boolValue {
                    warn(
                        "hooray export: \(TerminalText.safe(given)) is a file, not a folder: --format csv writes "
                            + "one file per kind of record. Give -o a folder, or a name ending in .zip for a zip. "
                            + "Nothing was written.")
                    throw ExitCode(ExitStatus.failed.rawValue)
                }
                // The folder is replaced whole: never one a link there points to, nor another user's.
                var info = stat()
                if lstat(given, &info) == 0, info.st_mode & S_IFMT == S_IFLNK || info.st_uid != geteuid() {
                    let pointed = (try? FileManager.default.destinationOfSymbolicLink(atPath: given)) ?? "?"
                    warn(
                        ExportTarget.message(
                            info.st_mode & S_IFMT == S_IFLNK
                                ? .symbolicLink(to: pointed) : .anotherUsersFile(uid: info.st_uid),
                            given: given, fix: ""))
                    throw ExitCode(ExitStatus.failed.rawValue)
                }
                let folder = given
                if exists, let other = Self.notATable(in: folder) {
                    warn(
                        "hooray export: the folder \(TerminalText.safe(given)) holds \(TerminalText.safe(other)), "
                            + "which is not a table of an earlier CSV export; the export replaces the whole folder, "
                            + "so it writes only into a new folder, an empty one or one holding only .csv files. "
                            + "Give -o a new folder, such as -o ~/hooray-csv, or empty this one. Nothing was written.")
                    throw ExitCode(ExitStatus.failed.rawValue)
                }
                try Self.writeFolder(files, to: folder, replacing: exists)
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            warn(
                "hooray export: cannot write \(TerminalText.safe(given)): \(Self.reason(error, path: given)). "
                    + "Give -o a folder you can write, such as -o ~/hooray-csv, or a .zip file in one.")
            throw ExitCode(ExitStatus.failed.rawValue)
        }
        let records = data.plugins.values.map(\.records.count).reduce(0, +)
        print(
            "Exported \(count(records, "record")) as \(count(files.count, "CSV table")) "
                + "(\(files.map(\.name).joined(separator: ", "))) "
                + (isZip ? "in the zip " : "to the folder ") + "\(TerminalText.safe(given)).")
        print("`hooray import` reads the JSON export only: `hooray export -o FILE` writes it.")
    }

    /// The first entry of a folder that is not a regular `*.csv` file, such as an earlier
    /// export's tables; `nil` when there is none.
    static func notATable(in folder: String) -> String? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return folder }
        return names.sorted().first { name in
            var info = stat()
            let path = (folder as NSString).appendingPathComponent(name)
            return !name.hasSuffix(".csv") || lstat(path, &info) != 0 || info.st_mode & S_IFMT != S_IFREG
        }
    }

    /// Writes files into a new folder readable by its owner only, made next to the target and
    /// then moved in place: a folder that is there (an earlier export's tables) is moved aside
    /// first and removed afterwards, so that no stale table stays and a failure leaves it whole.
    static func writeFolder(_ files: [ExportDocument.CSVFile], to folder: String, replacing: Bool) throws {
        let parent = (folder as NSString).deletingLastPathComponent
        let previousMask = umask(0o077)
        defer { umask(previousMask) }
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        let scratch = (parent as NSString).appendingPathComponent(".hooray-export-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(
            atPath: scratch, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        for file in files {
            try writePrivately(Data(file.text.utf8), to: (scratch as NSString).appendingPathComponent(file.name))
        }
        guard replacing else {
            guard rename(scratch, folder) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: folder])
            }
            return
        }
        let aside = (parent as NSString).appendingPathComponent(".hooray-export-old-\(UUID().uuidString)")
        guard rename(folder, aside) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: folder])
        }
        guard rename(scratch, folder) == 0 else {
            _ = rename(aside, folder)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: folder])
        }
        try? FileManager.default.removeItem(atPath: aside)
    }

    /// The CSV files in a zip, made in memory: ``ExportTarget`` writes it beside the target.
    static func zip(_ files: [ExportDocument.CSVFile]) throws(ExportTarget.Refusal) -> Data {
        do {
            let archive = try Archive(accessMode: .create)
            for file in files {
                let bytes = Data(file.text.utf8)
                try archive.addEntry(
                    with: file.name, type: .file, uncompressedSize: Int64(bytes.count), permissions: 0o600,
                    compressionMethod: .deflate
                ) { position, size in
                    bytes.subdata(in: Int(position)..<Int(position) + size)
                }
            }
            guard let data = archive.data else { throw CocoaError(.fileWriteUnknown) }
            return data
        } catch {
            throw .cannotWrite("the zip could not be made: \(error)")
        }
    }
}
