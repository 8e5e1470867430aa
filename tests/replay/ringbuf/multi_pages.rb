# options: --pages 8 --sample-id-all
write 2000 10
dump
pause
write 104 4
resume
write 2048 10
dump
write 40 200
dump
