# options: --pages 4 --wakeup-events 3
write 304 40
dump
write 56 100
dump
