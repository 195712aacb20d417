#!/bin/bash

__notiplay_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__notiplay_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__notiplay_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__notiplay_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_notiplay() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=()
    __notiplay_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    play|deliver|validate|extensions|test|serve|send|list|remove|history|focus|clock|reload|attach|stop|help)
        # Offer subcommand argument completions
        "_notiplay_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'play deliver validate extensions test serve send list remove history focus clock reload attach stop help' -- "${cur}"))
        ;;
    esac
}

_notiplay_play() {
    repeating_flags=()
    non_repeating_flags=(--untimed --version -h --help)
    repeating_options=()
    non_repeating_options=(--audio --events)
    __notiplay_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--audio')
        __notiplay_add_completions -W 'auto'$'\n''null'$'\n''pcm:'
        return
        ;;
    '--events')
        __notiplay_add_completions -W 'jsonl'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __notiplay_add_completions -f
        return
        ;;
    esac
}

_notiplay_deliver() {
    repeating_flags=()
    non_repeating_flags=(--headless --untimed --no-payload-limit --version -h --help)
    repeating_options=(--attach --media-root)
    non_repeating_options=(--app --extensions --keys --events --audio --response-timeout --service-timeout)
    __notiplay_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--attach')
        __notiplay_add_completions -f
        return
        ;;
    '--app')
        __notiplay_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    '--extensions')
        __notiplay_add_completions -d
        return
        ;;
    '--keys')
        return
        ;;
    '--events')
        __notiplay_add_completions -W 'jsonl'
        return
        ;;
    '--audio')
        __notiplay_add_completions -W 'auto'$'\n''null'$'\n''pcm:'
        return
        ;;
    '--media-root')
        __notiplay_add_completions -d
        return
        ;;
    '--response-timeout')
        return
        ;;
    '--service-timeout')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __notiplay_add_completions -o plusdirs -fX '!*.@(apns|json)'
        return
        ;;
    esac
}

_notiplay_validate() {
    repeating_flags=()
    non_repeating_flags=(--json --no-payload-limit --version -h --help)
    repeating_options=()
    non_repeating_options=()
    __notiplay_offer_flags_options -1

    # Offer positional completions
    case "${positional_number}" in
    *)
        __notiplay_add_completions -f
        return
        ;;
    esac
}

_notiplay_extensions() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--extensions)
    __notiplay_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--extensions')
        __notiplay_add_completions -d
        return
        ;;
    esac
}

_notiplay_test() {
    repeating_flags=()
    non_repeating_flags=(--tap --untimed --version -h --help)
    repeating_options=(--media-root)
    non_repeating_options=(--junit --timeout --jobs)
    __notiplay_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--junit')
        __notiplay_add_completions -f
        return
        ;;
    '--timeout')
        return
        ;;
    '--jobs')
        return
        ;;
    '--media-root')
        __notiplay_add_completions -d
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __notiplay_add_completions -o plusdirs -fX '!*.@(playback)'
        return
        ;;
    esac
}

_notiplay_serve() {
    repeating_flags=()
    non_repeating_flags=(--headless --freedesktop --replace --untimed --version -h --help)
    repeating_options=(--app --deny --media-root)
    non_repeating_options=(--keys --events --config --keep-history --keep-days --clock --start --expire --expire-critical --audio)
    __notiplay_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--app')
        __notiplay_add_completions -f
        return
        ;;
    '--keys')
        return
        ;;
    '--events')
        __notiplay_add_completions -W 'jsonl'
        return
        ;;
    '--config')
        __notiplay_add_completions -f
        return
        ;;
    '--keep-history')
        return
        ;;
    '--keep-days')
        return
        ;;
    '--clock')
        __notiplay_add_completions -W 'system'$'\n''virtual'
        return
        ;;
    '--start')
        return
        ;;
    '--deny')
        return
        ;;
    '--expire')
        return
        ;;
    '--expire-critical')
        return
        ;;
    '--audio')
        __notiplay_add_completions -W 'auto'$'\n''null'$'\n''pcm:'
        return
        ;;
    '--media-root')
        __notiplay_add_completions -d
        return
        ;;
    esac
}

_notiplay_send() {
    repeating_flags=()
    non_repeating_flags=(--wait --version -h --help)
    repeating_options=(--attach)
    non_repeating_options=(--app --id --after --at --repeat)
    __notiplay_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--attach')
        __notiplay_add_completions -f
        return
        ;;
    '--app')
        return
        ;;
    '--id')
        return
        ;;
    '--after')
        return
        ;;
    '--at')
        return
        ;;
    '--repeat')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __notiplay_add_completions -f
        return
        ;;
    esac
}

_notiplay_list() {
    repeating_flags=()
    non_repeating_flags=(--pending --delivered --json --version -h --help)
    repeating_options=()
    non_repeating_options=()
    __notiplay_offer_flags_options 0
}

_notiplay_remove() {
    repeating_flags=()
    non_repeating_flags=(--all --version -h --help)
    repeating_options=()
    non_repeating_options=()
    __notiplay_offer_flags_options -1
}

_notiplay_history() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--limit)
    __notiplay_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--limit')
        return
        ;;
    esac
}

_notiplay_focus() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __notiplay_offer_flags_options 1

    # Offer positional completions
    case "${positional_number}" in
    1)
        __notiplay_add_completions -W 'on'$'\n''off'$'\n''status'
        return
        ;;
    esac
}

_notiplay_clock() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--advance)
    __notiplay_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--advance')
        return
        ;;
    esac
}

_notiplay_reload() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __notiplay_offer_flags_options 0
}

_notiplay_attach() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __notiplay_offer_flags_options -1
}

_notiplay_stop() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __notiplay_offer_flags_options 0
}

_notiplay_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __notiplay_offer_flags_options -1
}

complete -o filenames -F _notiplay notiplay
