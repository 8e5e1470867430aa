# options: --sample-id-all
# With sample_id_all the LOST record takes the sample_id trailer of the
# event that writes next: none for IP (16), pid/tid (24), pid/tid + time (32).
pause
write 40 2
resume
write 16
pause
write 16
resume
write 24
pause
write 24 3
resume
write 32
pause
write 32
resume
write 48
dump
