#!/usr/bin/env bash
# Makes the sample creatives in this folder with the ffmpeg CLI (a tool for making media,
# never called by launchad itself). Run from anywhere: bash Media/make-media.sh
set -euo pipefail
cd "$(dirname "$0")"
font=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
q() { ffmpeg -y -hide_banner -loglevel error "$@"; }

# The video ad: portrait 720x1280, 5.5 s, H.264 High + AAC-LC stereo 48 kHz, faststart.
# A moving gradient, a bouncing ball, a big second counter and a sweep so motion is easy to see.
q -f lavfi -i "gradients=s=720x1280:r=30:c0=0x1d2671:c1=0xc33764:speed=0.02:d=5.5" \
  -f lavfi -i "sine=frequency=523.25:sample_rate=48000:duration=5.5" \
  -f lavfi -i "sine=frequency=659.25:sample_rate=48000:duration=5.5" \
  -filter_complex "[0:v]drawbox=x=0:y=1180:w=720*t/5.5:h=24:color=white@0.8:t=fill,\
drawtext=fontfile=$font:text='SPRING SALE':fontsize=84:fontcolor=white:x=(w-tw)/2:y=260,\
drawtext=fontfile=$font:text='Everything on sale':fontsize=48:fontcolor=white:x=(w-tw)/2:y=380,\
drawtext=fontfile=$font:text='%{eif\:t+1\:d}':fontsize=240:fontcolor=white@0.9:x=(w-tw)/2:y=560,\
drawbox=x=60+540*abs(sin(t*1.3)):y=900:w=80:h=80:color=yellow:t=fill[v];\
[1:a][2:a]amerge=inputs=2,volume=0.25,afade=t=in:d=0.2,afade=t=out:st=5.2:d=0.3[a]" \
  -map "[v]" -map "[a]" -c:v libx264 -profile:v high -preset slow -crf 30 -pix_fmt yuv420p -g 30 \
  -c:a aac -b:a 96k -ac 2 -ar 48000 -movflags +faststart -t 5.5 sample-ad.mp4

# The static fallback: same aspect ratio as the video.
q -f lavfi -i "gradients=s=720x1280:c0=0x1d2671:c1=0xc33764:d=1" -frames:v 1 \
  -vf "drawtext=fontfile=$font:text='SPRING SALE':fontsize=84:fontcolor=white:x=(w-tw)/2:y=260,\
drawtext=fontfile=$font:text='Tap to shop':fontsize=56:fontcolor=white:x=(w-tw)/2:y=420" fallback.png

# The app logo for --layout logo-bottom: a mark and the name on white, the band's colour.
q -f lavfi -i "color=c=white:s=480x120" -frames:v 1 \
  -vf "drawbox=x=8:y=8:w=104:h=104:color=0xc33764:t=fill,\
drawtext=fontfile=$font:text='LA':fontsize=52:fontcolor=white:x=60-tw/2:y=60-th/2,\
drawtext=fontfile=$font:text='LaunchAd':fontsize=60:fontcolor=0x1d2671:x=132:y=(h-th)/2" logo.png
# Media/manifest.json lists the sizes and sha256 of sample-ad.mp4 and fallback.png: update it when they change.
ls -l sample-ad.mp4 fallback.png logo.png
