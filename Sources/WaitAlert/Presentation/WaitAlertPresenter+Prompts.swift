extension WaitAlertPresenter {
    /// Shows `prompt` and waits for it to end: one prompt at a time, in the order asked.
    ///
    /// A test bed's answerer answers it when one is set; otherwise the first renderer that can
    /// present prompts does (a terminal), and with none, a UI bound to ``prompt`` must. Cancelling
    /// the calling task cancels the prompt; after `timeout` it ends as timed out.
    package func ask(_ prompt: WaitAlertPrompt, timeout: Duration?) async -> PromptEnding {
        while self.prompt != nil {
            await withCheckedContinuation { promptWaiters.append($0) }
        }
        self.prompt = prompt
        defer {
            self.prompt = nil
            if !promptWaiters.isEmpty { promptWaiters.removeFirst().resume() }
        }
        let timer = timeout.map { timeout in
            Task { @MainActor [clock] in
                try await clock.sleep(clock.now() + timeout)
                prompt.timeOut()
            }
        }
        defer { timer?.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                prompt.onEnd { continuation.resume(returning: $0) }
                if Task.isCancelled {
                    prompt.cancel()
                } else if let promptAnswerer {
                    promptAnswerer(prompt)
                } else {
                    for renderer in renderers where renderer.present(prompt) { break }
                }
            }
        } onCancel: {
            Task { @MainActor in prompt.cancel() }
        }
    }
}
