import ArgumentParser

/// A command that takes many paths (`validate`, `test`): its paths are set aside before
/// ArgumentParser reads the command line and given back after.
///
/// ArgumentParser's time grows with the square of the number of arguments: 8,000 paths took 1.7 s
/// to parse, against 0.15 s for the whole `validate` run before it (10,000 payloads: 2.9 s against
/// 0.28 s, Scripts/bench-validate.py). Setting the paths aside keeps that cost to the options.
protocol TakesManyPaths: ParsableCommand {
    /// The options that take a value (`--jobs N`): their values are not paths.
    static var optionsWithValues: Set<String> { get }
    /// The paths, in the order given.
    var paths: [String] { get set }
}

extension ValidateCommand: TakesManyPaths {
    static var optionsWithValues: Set<String> { [] }
    var paths: [String] {
        get { files }
        set { files = newValue }
    }
}

extension TestCommand: TakesManyPaths {
    static var optionsWithValues: Set<String> { ["--junit", "--timeout", "--jobs"] }
    var paths: [String] {
        get { scripts }
        set { scripts = newValue }
    }
}

enum ManyPaths {
    /// The command lines of the commands that take many paths, split into what ArgumentParser
    /// reads (the command, its options and the first path, so that a missing path is its usage
    /// error as before) and all the paths; `nil` for other commands.
    static func setAside(_ arguments: [String]) -> (parse: [String], paths: [String])? {
        guard let name = arguments.first,
            let command = NotiplayCommand.configuration.subcommands.first(where: { $0.configuration.commandName == name }),
            let takesPaths = command as? any TakesManyPaths.Type
        else { return nil }
        var parse = [name]
        var paths: [String] = []
        var optionsEnded = false
        var index = 1
        while index < arguments.count {
            let word = arguments[index]
            if optionsEnded || !word.hasPrefix("-") || word == "-" {
                paths.append(word)
            } else if word == "--" {
                optionsEnded = true
            } else {
                parse.append(word)
                if takesPaths.optionsWithValues.contains(word), index + 1 < arguments.count {
                    index += 1
                    parse.append(arguments[index])
                }
            }
            index += 1
        }
        if let first = paths.first { parse += ["--", first] }
        return (parse, paths)
    }

    /// `command` with `paths` given back when it takes many paths.
    static func giveBack(_ paths: [String], to command: any ParsableCommand) -> any ParsableCommand {
        guard var takesPaths = command as? any TakesManyPaths else { return command }
        takesPaths.paths = paths
        return takesPaths
    }
}
