#!/usr/bin/env bash
# Makes the hostile-creatives corpus: damaged files, files that lie about what they are, and
# what real encoders, editors and phones produce (10-bit, HEVC, VP9, rotation, full range,
# anamorphic pixels, VFR, odd sizes, 5.1 and mono 22 kHz audio, streams of unequal length,
# negative timestamps, huge declared sizes, GIF, alpha, progressive and CMYK JPEG, many streams).
#
#   scripts/make-hostile-corpus.sh DIR
#
# Every file is short (about 1 s) and small. Most pictures are four quadrants, red top-left,
# lime top-right, blue bottom-left, white bottom-right, so orientation and aspect can be checked
# from pixels. Made with the ffmpeg CLI; the progressive and CMYK JPEGs, which ffmpeg cannot
# write, with Debian's python3-pil. The test that plays the corpus keeps its expectations
# (outcome, displayed size) in Tests/LaunchAdCLITests/HostileCorpusTests.swift and fails for a
# file it has no expectation for.
set -euo pipefail
out="${1:?usage: make-hostile-corpus.sh DIR}"
mkdir -p "$out"
cd "$out"
ff() { ffmpeg -nostdin -y -hide_banner -loglevel error "$@"; }

# Four quadrants of W x H, R frames a second, D seconds.
quad() {
  local w=$1 h=$2 r=${3:-25} d=${4:-1} hw=$(( $1 / 2 )) hh=$(( $2 / 2 ))
  local rw=$(( $1 - $1 / 2 )) rh=$(( $2 - $2 / 2 ))
  echo "color=c=red:s=${hw}x${hh}:r=$r:d=$d[a];color=c=lime:s=${rw}x${hh}:r=$r:d=$d[b];\
color=c=blue:s=${hw}x${rh}:r=$r:d=$d[c];color=c=white:s=${rw}x${rh}:r=$r:d=$d[e];\
[a][b]hstack[t];[c][e]hstack[u];[t][u]vstack"
}
tone() { echo "sine=frequency=${2:-440}:sample_rate=${3:-48000}:duration=${1:-1}"; }
x264=(-c:v libx264 -preset ultrafast -g 25)

# --- What a good encoder makes (the reference the damaged files start from) ---------------
ff -filter_complex "$(quad 160 120),format=yuv420p[v]" -f lavfi -i "$(tone 1)" -map "[v]" -map 0:a \
   "${x264[@]}" -c:a aac -ac 2 -movflags +faststart -t 1 good.mp4
# moov at the end (what ffmpeg writes without faststart, and many export tools too).
ff -filter_complex "$(quad 160 120),format=yuv420p[v]" -f lavfi -i "$(tone 1)" -map "[v]" -map 0:a \
   "${x264[@]}" -c:a aac -t 1 moov-at-end.mp4

# --- Damaged -------------------------------------------------------------------------------
size=$(stat -c %s good.mp4)
head -c $(( size / 2 )) good.mp4 > truncated.mp4                      # faststart, cut in half
head -c $(( $(stat -c %s moov-at-end.mp4) / 2 )) moov-at-end.mp4 > truncated-no-moov.mp4
cp good.mp4 corrupt-middle.mp4                                        # 4 kB of noise mid-file
python_noise() { /usr/bin/python3 -c "import random,sys; random.seed($1); sys.stdout.buffer.write(bytes(random.getrandbits(8) for _ in range($2)))"; }
python_noise 6 4096 | dd of=corrupt-middle.mp4 bs=1 seek=$(( size / 2 )) conv=notrunc status=none
: > zero-bytes.mp4
python_noise 7 65536 > random-bytes.mp4
python_noise 8 65536 > random-bytes.png
# A valid MP4 header followed by noise.
{ head -c 64 good.mp4; python_noise 9 8192; } > header-then-noise.mp4

# Found by the media fuzz target (Fuzz/regressions/media): a 300-byte GIF that opens but whose
# streams cannot be found; the demuxer once freed its context twice on it (a crash in play and probe).
echo 'R0lGODn/////////////////////////////////////////////////////////////////////////////////YaAAeAD3/zEAAKmpqampqampqUKpDUKIHwAYZqjhhhx26OGHIIYoBAAh+QQFCAQA/wUEACH5BAUKAP8ALGCfAHcAAQABAAAIBAD/BQQAIfkEBQoA/wAsnwD/ACyfAHcAAQABAAAIBAD/BQQAIfkEBQoA/wAsnwB3AEAAAAAAAAAAAQABAAAIBAD/BQQAOw==' \
  | base64 -d > fuzz-broken.gif

# --- Names that lie ------------------------------------------------------------------------
ff -filter_complex "$(quad 160 120 1 1)[v]" -map "[v]" -frames:v 1 -f image2 -c:v png png-named.mp4
cp good.mp4 mp4-named.png
ff -filter_complex "$(quad 160 120)[v]" -map "[v]" "${x264[@]}" -pix_fmt yuv420p -t 1 -f mpegts mpegts-named.mp4

# --- No picture ----------------------------------------------------------------------------
ff -f lavfi -i "$(tone 1)" -c:a aac -movflags +faststart audio-only-aac.mp4
# An MP3 with cover art: the cover is an attached picture, not a video.
ff -f lavfi -i "$(tone 1)" -filter_complex "$(quad 64 64 1 1)[v]" -map 0:a -map "[v]" -c:a libmp3lame -c:v mjpeg \
   -frames:v 1 -disposition:v attached_pic -f mp3 audio-with-cover.mp4

# --- Pixel formats and codecs --------------------------------------------------------------
ff -filter_complex "$(quad 160 120),format=yuv420p10le[v]" -map "[v]" "${x264[@]}" -profile:v high10 -t 1 h264-10bit.mp4
ff -filter_complex "$(quad 160 120),format=yuv420p10le[v]" -map "[v]" -c:v libx265 -preset ultrafast \
   -x265-params log-level=error -tag:v hvc1 -t 1 hevc-10bit.mp4
ff -filter_complex "$(quad 160 120),format=yuv420p[v]" -f lavfi -i "$(tone 1)" -map "[v]" -map 0:a -c:v libx265 \
   -preset ultrafast -x265-params log-level=error -tag:v hvc1 -c:a aac -t 1 hevc.mp4
ff -filter_complex "$(quad 160 120),format=yuv420p[v]" -f lavfi -i "$(tone 1)" -map "[v]" -map 0:a -c:v libvpx-vp9 \
   -deadline realtime -cpu-used 8 -b:v 200k -c:a libopus -t 1 vp9.mp4
# Full range the JPEG way (yuvj420p, as phones' H.264 flags it, HEVC too) and tagged pc on
# plain yuv420p (VP9) and 10-bit: left half 0x202020, right half 0xE0E0E0 in full-range code values.
levels="color=c=0x202020:s=80x120:r=25:d=1[l];color=c=0xE0E0E0:s=80x120:r=25:d=1[r];[l][r]hstack"
ff -filter_complex "$levels,scale=out_range=full,format=yuvj420p[v]" -map "[v]" "${x264[@]}" -t 1 yuvj420p-full-range.mp4
ff -filter_complex "$levels,scale=out_range=full,format=yuv420p[v]" -map "[v]" -c:v libx265 -preset ultrafast \
   -x265-params log-level=error:range=full -color_range pc -tag:v hvc1 -t 1 hevc-full-range.mp4
ff -filter_complex "$levels,scale=out_range=full,format=yuv420p10le[v]" -map "[v]" "${x264[@]}" -profile:v high10 \
   -color_range pc -t 1 h264-10bit-full-range.mp4
ff -filter_complex "$levels,scale=out_range=full,format=yuv420p[v]" -map "[v]" -c:v libvpx-vp9 -deadline realtime \
   -cpu-used 8 -color_range pc -t 1 vp9-full-range.mp4
ff -filter_complex "$levels,format=yuv420p[v]" -map "[v]" "${x264[@]}" -t 1 limited-range-levels.mp4
# 4:4:4 and 4:2:2 10-bit (what editors export: ProRes in MOV).
ff -filter_complex "$(quad 160 120),format=yuv444p[v]" -map "[v]" "${x264[@]}" -profile:v high444 -t 1 h264-yuv444.mp4
ff -filter_complex "$(quad 160 120),format=yuv422p10le[v]" -map "[v]" -c:v prores_ks -profile:v 0 -t 1 prores.mov

# --- Geometry ------------------------------------------------------------------------------
ff -filter_complex "$(quad 321 241),format=rgb24,scale,format=yuv420p[v]" -map "[v]" -c:v libvpx-vp9 -deadline realtime -cpu-used 8 \
   -t 1 odd-321x241.mp4
ff -filter_complex "$(quad 321 241),format=yuv444p[v]" -map "[v]" "${x264[@]}" -profile:v high444 -t 1 odd-321x241-h264.mp4
# Turned by the display matrix, as phones record: rotate-R.mp4 is stored 160x96 and must be
# turned R degrees clockwise (rotate-90 is a phone held upright: "rotation of -90.00 degrees").
# The tkhd matrix is written directly: the meaning of ffmpeg's rotate tag changed between versions.
for r in 90 180 270; do
  ff -filter_complex "$(quad 160 96),format=yuv420p[v]" -map "[v]" "${x264[@]}" -movflags +faststart -t 1 rotate-$r.mp4
  /usr/bin/python3 - rotate-$r.mp4 $r <<'PY'
import math, struct, sys
path, cw = sys.argv[1], int(sys.argv[2])
data = bytearray(open(path, "rb").read())
at = data.index(b"tkhd") - 4
matrix = at + (48 if data[at + 8] == 0 else 60)
c, s = round(math.cos(math.radians(cw))), round(math.sin(math.radians(cw)))
w, h = 160 << 16, 96 << 16
tx, ty = {90: (h, 0), 180: (w, h), 270: (0, w)}[cw]
struct.pack_into(">9i", data, matrix, c << 16, s << 16, 0, -s << 16, c << 16, 0, tx, ty, 1 << 30)
open(path, "wb").write(data)
PY
done
# Anamorphic: 160x120 stored, shown 4:3 wider (SAR 4:3, display 213x120).
ff -filter_complex "$(quad 160 120),setsar=4/3,format=yuv420p[v]" -map "[v]" "${x264[@]}" -t 1 sar-4-3.mp4
# Huge declared size in a small file: 8192x8192 H.264, four frames.
ff -f lavfi -i "color=c=blue:s=8192x8192:r=4:d=1" -c:v libx264 -preset ultrafast -pix_fmt yuv420p -t 1 huge-8192.mp4
# A 16x1024 sliver.
ff -filter_complex "$(quad 16 1024),format=yuv420p[v]" -map "[v]" "${x264[@]}" -t 1 sliver-16x1024.mp4
# The picture size changes in the middle of the stream (concatenated MPEG-TS, as live edits give).
ff -filter_complex "$(quad 160 120 25 0.5),format=yuv420p[v]" -map "[v]" "${x264[@]}" -f mpegts part-a.ts
ff -filter_complex "$(quad 320 240 25 0.5),format=yuv420p[v]" -map "[v]" "${x264[@]}" -output_ts_offset 0.5 -f mpegts part-b.ts
cat part-a.ts part-b.ts > size-change.ts
rm part-a.ts part-b.ts

# --- Timing --------------------------------------------------------------------------------
# Variable frame rate: 10 frames at 50 fps then 8 at 10 fps (about 1 s), as phones record.
ff -filter_complex "$(quad 160 120 50 1),setpts='if(lt(N,10),N/50/TB,(0.2+(N-10)*0.1)/TB)'[v]" -map "[v]" \
   -frames:v 18 -fps_mode vfr "${x264[@]}" -pix_fmt yuv420p vfr.mp4
ff -filter_complex "$(quad 160 120)[v]" -f lavfi -i "$(tone 1)" -map "[v]" -map 0:a "${x264[@]}" -pix_fmt yuv420p \
   -c:a aac -ac 6 -channel_layout 5.1 -t 1 audio-5.1.mp4
ff -filter_complex "$(quad 160 120)[v]" -f lavfi -i "$(tone 1 440 22050)" -map "[v]" -map 0:a "${x264[@]}" \
   -pix_fmt yuv420p -c:a aac -ac 1 -ar 22050 -t 1 audio-mono-22k.mp4
ff -filter_complex "$(quad 160 120 25 1)[v]" -f lavfi -i "$(tone 2)" -map "[v]" -map 0:a "${x264[@]}" -pix_fmt yuv420p \
   -c:a aac audio-longer-than-video.mp4
ff -filter_complex "$(quad 160 120 25 2)[v]" -f lavfi -i "$(tone 0.5)" -map "[v]" -map 0:a "${x264[@]}" -pix_fmt yuv420p \
   -c:a aac video-longer-than-audio.mp4
# B-frames, and a cut that starts between key frames: negative timestamps and an edit list.
ff -filter_complex "$(quad 160 120 25 2)[v]" -f lavfi -i "$(tone 2)" -map "[v]" -map 0:a -c:v libx264 -preset medium \
   -bf 3 -g 50 -pix_fmt yuv420p -c:a aac bframes-source.mp4
ff -ss 0.6 -i bframes-source.mp4 -c copy -t 1 bframes-edit-list.mp4
rm bframes-source.mp4
# Timestamps that start late (MPEG-TS's 1.4 s, then 10 s more).
ff -filter_complex "$(quad 160 120)[v]" -map "[v]" "${x264[@]}" -pix_fmt yuv420p -output_ts_offset 10 -t 1 -f mpegts late-start.ts
ff -filter_complex "$(quad 160 120 25 0.04)[v]" -map "[v]" "${x264[@]}" -pix_fmt yuv420p -frames:v 1 single-frame.mp4
# One video and nine audio and two subtitle streams.
ff -filter_complex "$(quad 160 120)[v]" -f lavfi -i "$(tone 1)" -f lavfi -i "$(tone 1 880)" \
   -f srt -i <(printf '1\n00:00:00,000 --> 00:00:01,000\nhello\n') \
   -map "[v]" -map 0:a -map 1:a -map 0:a -map 1:a -map 0:a -map 1:a -map 0:a -map 1:a -map 0:a -map 2:s -map 2:s \
   "${x264[@]}" -pix_fmt yuv420p -c:a aac -c:s mov_text -t 1 many-streams.mp4

# --- Pictures ------------------------------------------------------------------------------
ff -filter_complex "$(quad 160 120 10 1),split[a][b];[a]palettegen[p];[b][p]paletteuse[v]" -map "[v]" -t 1 animated.gif
# Left half opaque red, right half fully transparent lime.
ff -filter_complex "color=c=red@1:s=80x120,format=rgba[a];color=c=lime@0:s=80x120,format=rgba[b];[a][b]hstack[v]" \
   -map "[v]" -frames:v 1 alpha.png
ff -filter_complex "$(quad 160 120 1 1)[v]" -map "[v]" -frames:v 1 quad.png
/usr/bin/python3 - <<'EOF'
from PIL import Image
im = Image.open("quad.png").convert("RGB")
im.save("progressive.jpg", "JPEG", progressive=True, quality=90)
im.convert("CMYK").save("cmyk.jpg", "JPEG", quality=90)
EOF
rm quad.png
# An 8192x8192 PNG (declared huge, small on disk).
ff -f lavfi -i "color=c=blue:s=8192x8192" -frames:v 1 huge-8192.png
echo "$(ls | wc -l) files in $out"
