function love.conf(t)
    t.identity = "collworld-demo"
    t.window.title = "collworld: rocks (LÖVE)"
    t.window.width, t.window.height = 960, 640
    t.modules.audio, t.modules.sound = false, false -- silent: and no audio device is needed
    t.modules.joystick, t.modules.physics = false, false -- collworld does the collisions
end
