function __notiplay_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __notiplay_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __notiplay_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __notiplay_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __notiplay_parse_tokens -S
    set -l unparsed_tokens (__notiplay_tokens -pc)
    switch $unparsed_tokens[1]
    case 'notiplay'
        __notiplay_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'play'
            __notiplay_parse_subcommand 1 'audio=' 'untimed' 'events=' 'version' 'h/help'
        case 'deliver'
            __notiplay_parse_subcommand 1 'attach=+' 'app=' 'extensions=' 'headless' 'keys=' 'events=' 'audio=' 'untimed' 'media-root=+' 'no-payload-limit' 'response-timeout=' 'service-timeout=' 'version' 'h/help'
        case 'validate'
            __notiplay_parse_subcommand -r 1 'json' 'no-payload-limit' 'version' 'h/help'
        case 'extensions'
            __notiplay_parse_subcommand 0 'extensions=' 'version' 'h/help'
        case 'test'
            __notiplay_parse_subcommand -r 1 'junit=' 'tap' 'untimed' 'timeout=' 'jobs=' 'media-root=+' 'version' 'h/help'
        case 'serve'
            __notiplay_parse_subcommand 0 'app=+' 'headless' 'keys=' 'events=' 'config=' 'keep-history=' 'keep-days=' 'clock=' 'start=' 'deny=+' 'freedesktop' 'replace' 'expire=' 'expire-critical=' 'audio=' 'untimed' 'media-root=+' 'version' 'h/help'
        case 'send'
            __notiplay_parse_subcommand 1 'attach=+' 'app=' 'id=' 'wait' 'after=' 'at=' 'repeat=' 'version' 'h/help'
        case 'list'
            __notiplay_parse_subcommand 0 'pending' 'delivered' 'json' 'version' 'h/help'
        case 'remove'
            __notiplay_parse_subcommand -r 1 'all' 'version' 'h/help'
        case 'history'
            __notiplay_parse_subcommand 0 'limit=' 'json' 'version' 'h/help'
        case 'focus'
            __notiplay_parse_subcommand 1 'version' 'h/help'
        case 'clock'
            __notiplay_parse_subcommand 0 'advance=' 'version' 'h/help'
        case 'reload'
            __notiplay_parse_subcommand 0 'version' 'h/help'
        case 'attach'
            __notiplay_parse_subcommand -r 1 'version' 'h/help'
        case 'stop'
            __notiplay_parse_subcommand 0 'version' 'h/help'
        case 'help'
            __notiplay_parse_subcommand -r 1 'version'
        end
    end
end

function __notiplay_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __notiplay_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __notiplay_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __notiplay_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__notiplay_tokens -p)
    if test -z "$(__notiplay_tokens -t)"
        set -l index (count (__notiplay_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'notiplay' -f
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay" version' -l 'version' -d 'Show the version.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_positional "notiplay" -eq 1' -fa 'play' -d 'Play an audio file to its end.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_positional "notiplay" -eq 1' -fa 'deliver' -d 'Present a notification with its content extension (headless: keys in, events out).'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_positional "notiplay" -eq 1' -fa 'validate' -d 'Check payloads, extension Info.plists, app files, playback scripts and notiplay.conf.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_positional "notiplay" -eq 1' -fa 'extensions' -d 'List the notification extensions and the categories they present.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_positional "notiplay" -eq 1' -fa 'test' -d 'Run playback scripts (*.playback) against real playback; exit 1 if any fails.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_positional "notiplay" -eq 1' -fa 'serve' -d 'Run the notification center: show what `notiplay send` hands it, one card at a time.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_positional "notiplay" -eq 1' -fa 'send' -d 'Send a notification to the running center (notiplay serve).'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_positional "notiplay" -eq 1' -fa 'list' -d 'List the running center\'s pending and delivered notifications.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_positional "notiplay" -eq 1' -fa 'remove' -d 'Remove notifications from the running center (a shown card closes).'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_positional "notiplay" -eq 1' -fa 'history' -d 'What the center received, newest first (dismissed and removed too).'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_positional "notiplay" -eq 1' -fa 'focus' -d 'Turn Focus on or off, or say whether it is on.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_positional "notiplay" -eq 1' -fa 'clock' -d 'Print the center\'s time; move a virtual clock (serve --clock virtual) on.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_positional "notiplay" -eq 1' -fa 'reload' -d 'Have the running center read its configuration file (notiplay.conf) again.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_positional "notiplay" -eq 1' -fa 'attach' -d 'Show the center\'s cards in this terminal, starting the center in the background if none runs.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_positional "notiplay" -eq 1' -fa 'stop' -d 'Stop the running center (the one attach started, serve --headless, or serve).'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_positional "notiplay" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_positional "notiplay play" -eq 1' -F
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay play" audio' -l 'audio' -d 'Where audio goes: auto (the sound device, else the null output, said once), null (discarded in real time) or pcm:PATH (a WAV file, written as fast as it decodes).' -rfka 'auto null pcm:'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay play" untimed' -l 'untimed' -d 'Render audio faster than real time (the null output; pcm is never paced).'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay play" events' -l 'events' -d 'Print one JSON object per playback event on standard output.' -rfka 'jsonl'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay play" version' -l 'version' -d 'Show the version.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay play" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_positional "notiplay deliver" -eq 1' -fa '(set -l exts \'apns\' \'json\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay deliver"' -l 'attach' -d 'Attach a local file (audio or image); repeatable.' -rF
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay deliver" app' -l 'app' -d 'The app file (name, categories, actions, extensions).' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'json\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay deliver" extensions' -l 'extensions' -d 'A folder of Name.appex bundles (default: the app file\'s).' -rfa '(__notiplay_complete_directories)'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay deliver" headless' -l 'headless' -d 'No terminal: feed --keys, print events.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay deliver" keys' -l 'keys' -d 'Keys to feed, separated by spaces (see above).' -rfka ''
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay deliver" events' -l 'events' -d 'Print events as JSON lines (default: readable lines).' -rfka 'jsonl'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay deliver" audio' -l 'audio' -d 'Where audio goes: auto (the sound device, else the null output, said once), null (discarded in real time) or pcm:PATH (a WAV file, written as fast as it decodes).' -rfka 'auto null pcm:'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay deliver" untimed' -l 'untimed' -d 'Render audio faster than real time (the null output; pcm is never paced).'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay deliver"' -l 'media-root' -d 'Also let a payload\'s local media-url name files inside this folder (symbolic links resolved); repeatable.' -rfa '(__notiplay_complete_directories)'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay deliver" no-payload-limit' -l 'no-payload-limit' -d 'Accept payloads above APNs\' 4096 bytes.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay deliver" response-timeout' -l 'response-timeout' -d 'Time an extension has to answer an action (default 10).' -rfka ''
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay deliver" service-timeout' -l 'service-timeout' -d 'Time a service extension has to change the content (default 30).' -rfka ''
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay deliver" version' -l 'version' -d 'Show the version.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay deliver" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_positional "notiplay validate" -ge 1' -F
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay validate" json' -l 'json' -d 'One JSON object per file and line: file, kind, valid, errors, warnings…'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay validate" no-payload-limit' -l 'no-payload-limit' -d 'Accept payloads above APNs\' 4096 bytes.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay validate" version' -l 'version' -d 'Show the version.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay validate" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay extensions" extensions' -l 'extensions' -d 'A folder of Name.appex bundles.' -rfa '(__notiplay_complete_directories)'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay extensions" version' -l 'version' -d 'Show the version.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay extensions" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_positional "notiplay test" -ge 1' -fa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'playback\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay test" junit' -l 'junit' -d 'Also write a JUnit XML report to this file.' -rF
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay test" tap' -l 'tap' -d 'TAP output even on a terminal.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay test" untimed' -l 'untimed' -d 'Render audio faster than real time where nothing is heard.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay test" timeout' -l 'timeout' -d 'How long one script may run (default 60).' -rfka ''
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay test" jobs' -l 'jobs' -d 'How many scripts run at once (default: the number of cores).' -rfka ''
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay test"' -l 'media-root' -d 'Also let a payload\'s local media-url name files inside this folder (symbolic links resolved); repeatable.' -rfa '(__notiplay_complete_directories)'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay test" version' -l 'version' -d 'Show the version.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay test" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay serve"' -l 'app' -d 'An app file to present for; repeatable.' -rF
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay serve" headless' -l 'headless' -d 'No terminal: print events; keys from --keys, then a line at a time from standard input.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay serve" keys' -l 'keys' -d 'Keys to feed first, as deliver\'s --keys.' -rfka ''
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay serve" events' -l 'events' -d 'Print events as JSON lines (default: readable lines).' -rfka 'jsonl'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay serve" config' -l 'config' -d 'The configuration file (default: $XDG_CONFIG_HOME/notiplay/notiplay.conf, if it exists).' -rF
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay serve" keep-history' -l 'keep-history' -d 'Keep at most this many ended notifications in the history (default 100000).' -rfka ''
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay serve" keep-days' -l 'keep-days' -d 'Forget ended notifications after this many days (default 90).' -rfka ''
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay serve" clock' -l 'clock' -d 'The clock scheduled notifications fire on: system, or virtual (moved only by `notiplay clock --advance`, for tests).' -rfka 'system virtual'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay serve" start' -l 'start' -d 'Where a virtual clock starts, local time (default: now).' -rfka ''
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay serve"' -l 'deny' -d 'An app refused notifications (its requestAuthorization answers false, its sends fail); repeatable.' -rfka ''
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay serve" freedesktop' -l 'freedesktop' -d 'Also be the desktop\'s notification server: own org.freedesktop.Notifications on the session bus.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay serve" replace' -l 'replace' -d 'With --freedesktop, take the name over from the server that owns it; one of yours that does not hand it over (dunst, mako, xfce4-notifyd) is asked to end (SIGTERM).'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay serve" expire' -l 'expire' -d 'With --freedesktop, how long a low or normal notification that leaves it to the server (expire_timeout -1) stays on screen; 0: until dismissed (default 10).' -rfka ''
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay serve" expire-critical' -l 'expire-critical' -d 'The same for a critical one (default 0: until dismissed).' -rfka ''
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay serve" audio' -l 'audio' -d 'Where audio goes: auto (the sound device, else the null output, said once), null (discarded in real time) or pcm:PATH (a WAV file, written as fast as it decodes).' -rfka 'auto null pcm:'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay serve" untimed' -l 'untimed' -d 'Render audio faster than real time (the null output; pcm is never paced).'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay serve"' -l 'media-root' -d 'Also let a payload\'s local media-url name files inside this folder (symbolic links resolved); repeatable.' -rfa '(__notiplay_complete_directories)'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay serve" version' -l 'version' -d 'Show the version.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay serve" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_positional "notiplay send" -eq 1' -F
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay send"' -l 'attach' -d 'Attach a local file (audio or image); repeatable.' -rF
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay send" app' -l 'app' -d 'The app it comes from, by name (default: notiplay).' -rfka ''
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay send" id' -l 'id' -d 'Its identifier (default: a new UUID); the same identifier replaces.' -rfka ''
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay send" wait' -l 'wait' -d 'Wait for the response and print it as JSON.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay send" after' -l 'after' -d 'Deliver it after this long: 30s, 5m, 1h30m, 1d (at most 3650d).' -rfka ''
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay send" at' -l 'at' -d 'Deliver it at this local date and time.' -rfka ''
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay send" repeat' -l 'repeat' -d 'Repeat: with --after, `interval`; with --at, hourly, daily, weekly, monthly or yearly.' -rfka ''
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay send" version' -l 'version' -d 'Show the version.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay send" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay list" pending' -l 'pending' -d 'Only those waiting for their time.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay list" delivered' -l 'delivered' -d 'Only those delivered.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay list" json' -l 'json' -d 'One JSON array instead of lines.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay list" version' -l 'version' -d 'Show the version.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay remove" all' -l 'all' -d 'Remove every pending and delivered notification.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay remove" version' -l 'version' -d 'Show the version.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay remove" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay history" limit' -l 'limit' -d 'How many (default 100).' -rfka ''
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay history" json' -l 'json' -d 'One JSON array of the stored notifications instead of lines.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay history" version' -l 'version' -d 'Show the version.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay history" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_positional "notiplay focus" -eq 1' -fka 'on off status'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay focus" version' -l 'version' -d 'Show the version.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay focus" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay clock" advance' -l 'advance' -d 'Move the virtual clock on by this much: 30s, 5m, 1h30m, 7d (at most 3650d).' -rfka ''
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay clock" version' -l 'version' -d 'Show the version.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay clock" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay reload" version' -l 'version' -d 'Show the version.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay reload" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay attach" version' -l 'version' -d 'Show the version.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay attach" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay stop" version' -l 'version' -d 'Show the version.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay stop" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'notiplay' -n '__notiplay_should_offer_completions_for_flags_or_options "notiplay help" version' -l 'version' -d 'Show the version.'
