# options: --pages 2 --watermark 100
write 96 50
dump
pause
write 96
resume
write 96 50
dump
