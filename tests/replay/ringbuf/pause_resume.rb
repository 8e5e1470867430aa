# options:
# Records written while paused are counted and reported in a LOST record
# by the first write after resume, in every mode.
write 48 2
pause
write 48 5
dump
resume
dump
write 48
dump
pause
pause
write 16 2
resume
resume
write 24
dump
