#!/usr/bin/env bash
# Regenerates the samples' audio: Samples/VoiceMemo/memo.ogg, Samples/Preview/ringtone.wav and
# Samples/Preview/spoken.ogg.
#
# Needs: sox, espeak-ng, ffmpeg (with libvorbis)
#   (Debian/Ubuntu: apt-get install sox espeak-ng ffmpeg)
# The outputs are committed, so builds, tests and CI do not need these tools.
#
# Deterministic as Media/make-media.sh is: no random input, no metadata, sox -R -D, bit-exact
# muxing; the same tool versions give byte-identical files.
set -euo pipefail

HERE=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
export LC_ALL=C

for tool in sox espeak-ng ffmpeg; do
    command -v "$tool" >/dev/null 2>&1 || { echo "make-media.sh: '$tool' not found" >&2; exit 1; }
done

TMP=$(mktemp -d)
trap 'rm -rf -- "$TMP"' EXIT

ff() {
    ffmpeg -nostdin -hide_banner -loglevel error -y "$@"
}
BITEXACT=(-map_metadata -1 -fflags +bitexact -flags:a +bitexact)

# ---------------------------------------------------------------------------
# 1. VoiceMemo/memo.ogg: speech from espeak-ng (en-us, 150 wpm), mono 22050 Hz,
#    silence at both ends trimmed to 0.15 s, Ogg Vorbis quality 1 (about 5.7 s, 30 KB).
# ---------------------------------------------------------------------------
MEMO_TEXT="Hi, it's Ana. My train is late, so start dinner without me. See you at eight."
espeak-ng -v en-us -s 150 -w "$TMP/memo-raw.wav" "$MEMO_TEXT"
sox -R -D "$TMP/memo-raw.wav" -r 22050 -c 1 -b 16 "$TMP/memo.wav" \
    silence 1 0.02 0.1% reverse silence 1 0.02 0.1% reverse pad 0.15 0.15
ff -i "$TMP/memo.wav" -c:a libvorbis -q:a 1 "${BITEXACT[@]}" "$HERE/VoiceMemo/memo.ogg"

# ---------------------------------------------------------------------------
# 2. Preview/ringtone.wav: a ringtone for the level meter, exactly 3.000 s at 8000 Hz, mono,
#    16-bit PCM (24000 frames, 48 KB). Six 0.3 s beeps, alternately B5 and G5, each followed by
#    0.2 s of silence, getting louder: peaks at -26, -20, -14, -9, -6 and -3 dBFS, so the meter
#    climbs from beep to beep and falls to nothing in each gap.
# ---------------------------------------------------------------------------
RATE=8000
parts=()
i=0
for step in "987.77 0.05" "783.99 0.1" "987.77 0.2" "783.99 0.35" "987.77 0.5" "783.99 0.7"; do
    set -- $step
    sox -R -D -n -r $RATE -c 1 -b 16 "$TMP/beep$i.wav" synth 0.3 sine "$1" vol "$2" fade t 0.01 0.3 0.02
    sox -R -D -n -r $RATE -c 1 -b 16 "$TMP/gap$i.wav" trim 0 0.2
    parts+=("$TMP/beep$i.wav" "$TMP/gap$i.wav")
    i=$((i + 1))
done
sox -R -D "${parts[@]}" "$TMP/ringtone.wav"
# Rewrite with ffmpeg so the header is a plain 44-byte PCM WAV header.
ff -i "$TMP/ringtone.wav" -c:a pcm_s16le "${BITEXACT[@]}" "$HERE/Preview/ringtone.wav"

# ---------------------------------------------------------------------------
# 3. Preview/spoken.ogg: the voice memo again, for preview-ogg.apns (a sound that is not WAV,
#    so no meter). A copy, not a reference to ../VoiceMemo: a payload's media-url may name
#    files in its own folder only.
# ---------------------------------------------------------------------------
cp "$HERE/VoiceMemo/memo.ogg" "$HERE/Preview/spoken.ogg"

echo "make-media.sh: wrote $HERE/VoiceMemo/memo.ogg, $HERE/Preview/ringtone.wav and $HERE/Preview/spoken.ogg"
