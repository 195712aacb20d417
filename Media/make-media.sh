#!/usr/bin/env bash
# Regenerates the sample audio files in this folder.
#
# Needs: ffmpeg (with libvorbis, libmp3lame, libopus), sox, espeak-ng
#   (Debian/Ubuntu: apt-get install ffmpeg sox espeak-ng)
# The outputs are committed, so builds and CI do not need these tools.
#
# Deterministic: no random input, no timestamps/metadata, bit-exact muxing.
# Re-running with the same tool versions gives byte-identical files
# (different encoder versions may produce slightly different bytes).
set -euo pipefail

HERE=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
OUT=$HERE
export LC_ALL=C

for tool in ffmpeg sox espeak-ng; do
    command -v "$tool" >/dev/null 2>&1 || { echo "make-media.sh: '$tool' not found" >&2; exit 1; }
done

TMP=$(mktemp -d)
trap 'rm -rf -- "$TMP"' EXIT

# Common ffmpeg options: quiet, overwrite, no metadata, bit-exact container
# and codec output (no version strings, fixed Ogg serial numbers).
ff() {
    ffmpeg -nostdin -hide_banner -loglevel error -y "$@"
}
BITEXACT=(-map_metadata -1 -fflags +bitexact -flags:a +bitexact)

RATE=44100

# ---------------------------------------------------------------------------
# 1. chime.wav: 2.0 s, 44100 Hz, mono, s16, three-note A-major arpeggio
#    (A5, C#6, E6), each a sine with a soft octave partial, a 6 ms fade-in
#    and an exponential decay; the whole clip fades out over the last 0.4 s.
#    Normalised to a peak of -6 dBFS. Exactly 88200 frames.
# ---------------------------------------------------------------------------
# note(f, t0): silent before t0, then 6 ms linear attack and exp decay.
note() {
    local f=$1 t0=$2
    local dt="(t-$t0)"
    printf '%s' "gte(t,$t0)*min(1,$dt/0.006)*exp(-3*$dt)*(sin(2*PI*$f*$dt)+0.2*exp(-5*$dt)*sin(4*PI*$f*$dt))"
}
# Scaled by 0.25 so the raw sum stays well below full scale (sox clips
# float input above 1.0 before gain -n could normalise it).
CHIME_EXPR="0.25*($(note 880 0)+$(note 1108.731 0.15)+$(note 1318.510 0.30))"

ff -f lavfi -i "aevalsrc=exprs='$CHIME_EXPR':s=$RATE:c=mono:d=2" \
   -af "afade=t=out:st=1.6:d=0.4,atrim=end_sample=$((2 * RATE))" \
   -f f32le -c:a pcm_f32le "$TMP/chime.f32"

# sox: peak-normalise to -6 dBFS and convert to 16 bit; -D = no dither
# (keeps it deterministic), -R = repeatable mode.
sox -R -D -t f32 -r $RATE -c 1 "$TMP/chime.f32" -b 16 -e signed-integer "$TMP/chime-s16.wav" gain -n -6

# Rewrite with ffmpeg so the header is a plain 44-byte PCM WAV header.
ff -i "$TMP/chime-s16.wav" -c:a pcm_s16le "${BITEXACT[@]}" "$OUT/chime.wav"

# ---------------------------------------------------------------------------
# 2. Compressed / other-container variants of the chime.
# ---------------------------------------------------------------------------
SRC=$OUT/chime.wav

# Ogg Vorbis, quality 2.
ff -i "$SRC" -c:a libvorbis -q:a 2 "${BITEXACT[@]}" "$OUT/chime.ogg"

# MP3, 64 kbit/s CBR mono. The Xing/LAME info frame (-write_xing 1, the
# default) carries encoder delay and padding so decoders can trim them
# (gapless). No ID3 tags.
ff -i "$SRC" -c:a libmp3lame -b:a 64k -ac 1 -write_xing 1 -id3v2_version 0 -write_id3v1 0 \
   "${BITEXACT[@]}" "$OUT/chime.mp3"

# AAC-LC in MP4 (m4a), 64 kbit/s, ffmpeg's native encoder. ffmpeg writes an
# edit list so the 1024-sample priming is skipped on decode.
ff -i "$SRC" -c:a aac -profile:a aac_low -b:a 64k "${BITEXACT[@]}" "$OUT/chime.m4a"

# Opus in Ogg, 32 kbit/s (encoded at 48 kHz; pre-skip in the header and the
# final granule position trim the padding).
ff -i "$SRC" -c:a libopus -b:a 32k -ar 48000 "${BITEXACT[@]}" "$OUT/chime.opus"

# FLAC, lossless.
ff -i "$SRC" -c:a flac -compression_level 8 "${BITEXACT[@]}" "$OUT/chime.flac"

# AIFF, 16-bit big-endian PCM, resampled to 22050 Hz to stay small (and to
# give the player a non-44.1 kHz input). Uses swresample, not soxr: soxr is
# multi-threaded here and its output differed in the last bit between runs.
ff -i "$SRC" -af "aresample=22050" -c:a pcm_s16be "${BITEXACT[@]}" "$OUT/chime.aiff"

# ---------------------------------------------------------------------------
# 3. tone-1s.wav: exactly 1.000 s (44100 frames), 660 Hz sine at -6 dBFS,
#    10 ms linear fade-in and fade-out. Used for benchmarks.
# ---------------------------------------------------------------------------
ff -f lavfi -i "aevalsrc=exprs='0.5*sin(2*PI*660*t)':s=$RATE:c=mono:d=1" \
   -af "afade=t=in:d=0.01,afade=t=out:st=0.99:d=0.01,atrim=end_sample=$RATE" \
   -c:a pcm_s16le "${BITEXACT[@]}" "$OUT/tone-1s.wav"

# ---------------------------------------------------------------------------
# 4. voice-memo.{m4a,ogg}: speech from espeak-ng (en-us, 150 wpm), mono
#    22050 Hz, leading/trailing silence trimmed to 0.15 s.
# ---------------------------------------------------------------------------
VOICE_TEXT="Hi, it's Sam. The build is green and lunch is at one. Call me back when you hear this."
espeak-ng -v en-us -s 150 -w "$TMP/voice-raw.wav" "$VOICE_TEXT"

# Trim silence at both ends (threshold 0.1 %), then pad 0.15 s each side.
sox -R -D "$TMP/voice-raw.wav" -r 22050 -c 1 -b 16 "$TMP/voice.wav" \
    silence 1 0.02 0.1% reverse silence 1 0.02 0.1% reverse pad 0.15 0.15

ff -i "$TMP/voice.wav" -c:a aac -profile:a aac_low -b:a 48k "${BITEXACT[@]}" "$OUT/voice-memo.m4a"
ff -i "$TMP/voice.wav" -c:a libvorbis -q:a 2 "${BITEXACT[@]}" "$OUT/voice-memo.ogg"

echo "make-media.sh: wrote files to $OUT"
